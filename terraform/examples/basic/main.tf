provider "google" {
  project = var.project_id
  region  = var.region
}

provider "google-beta" {
  project = var.project_id
  region  = var.region
}

module "adk_memory" {
  source = "../../modules/adk_memory"

  project_id                  = var.project_id
  region                      = var.region
  labels                      = var.labels
  agent_impersonators         = var.agent_impersonators
  enable_vector_search        = var.enable_vector_search
  memory_bank_deletion_policy = var.memory_bank_deletion_policy
}
