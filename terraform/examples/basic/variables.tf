variable "project_id" {
  description = "ID of the Google Cloud project to deploy into."
  type        = string
}

variable "region" {
  description = "Vertex AI region, e.g. us-central1."
  type        = string
  default     = "us-central1"
}

variable "labels" {
  description = "Labels for every resource that takes labels."
  type        = map(string)
  default     = {}
}

variable "agent_impersonators" {
  description = "IAM members (user:you@example.com) who may impersonate the agent's service account to run `adk web` locally."
  type        = list(string)
  default     = []
}

variable "enable_vector_search" {
  description = "Also provision the Vector Search backend (bills for its replicas around the clock)."
  type        = bool
  default     = false
}

variable "memory_bank_deletion_policy" {
  description = "PREVENT keeps `terraform destroy` from deleting the memories; set FORCE to tear everything down."
  type        = string
  default     = "PREVENT"
}
