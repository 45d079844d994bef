variable "project_id" {
  description = "ID of the Google Cloud project that hosts the Memory Bank, the Vector Search index and the agent's service account."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a project ID (6-30 lowercase letters, digits or hyphens, starting with a letter), not a project number or display name."
  }
}

variable "region" {
  description = "Vertex AI region for every resource (Memory Bank, models, Vector Search), e.g. us-central1. It becomes GOOGLE_CLOUD_LOCATION."
  type        = string
  default     = "us-central1"

  validation {
    condition     = can(regex("^[a-z]+(-[a-z]+)+[0-9]+$", var.region))
    error_message = "region must be a Google Cloud region such as us-central1 or europe-west4 (multi-regions and zones are not accepted)."
  }
}

variable "name_prefix" {
  description = "Prefix for display names and the service account ID. At most 21 characters so that \"<prefix>-agent\" fits the 30-character service account limit."
  type        = string
  default     = "adk-memory"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,19}[a-z0-9]$", var.name_prefix))
    error_message = "name_prefix must be 3-21 lowercase letters, digits or hyphens, start with a letter and not end with a hyphen."
  }
}

variable "labels" {
  description = "Labels added to every resource that takes labels (Reasoning Engine, index, index endpoint), on top of app=adk-memory and managed-by=terraform."
  type        = map(string)
  default     = {}

  validation {
    condition = alltrue([
      for k, v in var.labels :
      can(regex("^[a-z][a-z0-9_-]{0,62}$", k)) && can(regex("^[a-z0-9_-]{0,63}$", v))
    ])
    error_message = "Label keys must start with a lowercase letter; keys and values may hold only lowercase letters, digits, underscores and hyphens, at most 63 characters."
  }
}

variable "enable_apis" {
  description = "Enable the Google APIs the resources need. Turn off when a platform team manages services centrally."
  type        = bool
  default     = true
}

variable "kms_key_name" {
  description = "Optional Cloud KMS key (projects/P/locations/L/keyRings/R/cryptoKeys/K, in the same region) used as CMEK for the Reasoning Engine, the index and the index endpoint. null keeps Google-managed encryption."
  type        = string
  default     = null

  validation {
    condition     = var.kms_key_name == null || can(regex("^projects/[^/]+/locations/[^/]+/keyRings/[^/]+/cryptoKeys/[^/]+$", var.kms_key_name))
    error_message = "kms_key_name must look like projects/P/locations/L/keyRings/R/cryptoKeys/K."
  }
}

variable "grant_kms_to_service_agent" {
  description = "When kms_key_name is set, grant the Vertex AI service agent roles/cloudkms.cryptoKeyEncrypterDecrypter on that key. Turn off when the key's owners grant it themselves."
  type        = bool
  default     = true
}

# --- Memory Bank ---------------------------------------------------------------------------------

variable "generation_model" {
  description = "Model Memory Bank uses to extract and consolidate memories: a publisher model ID (gemini-2.5-flash) or a full projects/.../publishers/google/models/... name."
  type        = string
  default     = "gemini-2.5-flash"

  validation {
    condition     = length(trimspace(var.generation_model)) > 0
    error_message = "generation_model must not be empty."
  }
}

variable "embedding_model" {
  description = "Model Memory Bank uses for similarity search over memories: a publisher model ID (text-embedding-005) or a full projects/.../publishers/google/models/... name."
  type        = string
  default     = "text-embedding-005"

  validation {
    condition     = length(trimspace(var.embedding_model)) > 0
    error_message = "embedding_model must not be empty."
  }
}

variable "memory_ttl_days" {
  description = "Days after which Memory Bank deletes a memory (ttl_config.default_ttl). null keeps memories until they are deleted; adk-memory's own lifecycle archives stale facts instead."
  type        = number
  default     = null

  validation {
    condition     = var.memory_ttl_days == null || try(var.memory_ttl_days > 0, false)
    error_message = "memory_ttl_days must be null or a positive number of days."
  }
}

variable "memory_revision_ttl_days" {
  description = "Days Memory Bank keeps memory revisions (ttl_config.memory_revision_default_ttl). null uses the service default (365 days)."
  type        = number
  default     = null

  validation {
    condition     = var.memory_revision_ttl_days == null || try(var.memory_revision_ttl_days > 0, false)
    error_message = "memory_revision_ttl_days must be null or a positive number of days."
  }
}

variable "disable_memory_revisions" {
  description = "Stop Memory Bank from recording a revision for every change. Revisions back `adk-memory history`, so keep them unless storage matters more."
  type        = bool
  default     = false
}

variable "memory_scope_keys" {
  description = "Scope keys the topic customization applies to. adk-memory scopes every memory by (app_name, user_id)."
  type        = list(string)
  default     = ["app_name", "user_id"]

  validation {
    condition     = length(var.memory_scope_keys) > 0 && alltrue([for k in var.memory_scope_keys : can(regex("^[A-Za-z_][A-Za-z0-9_]*$", k))])
    error_message = "memory_scope_keys must be a non-empty list of identifiers such as app_name and user_id."
  }
}

variable "managed_memory_topics" {
  description = "Google-managed topics Memory Bank extracts when it generates memories server-side."
  type        = list(string)
  default     = ["USER_PERSONAL_INFO", "USER_PREFERENCES", "KEY_CONVERSATION_DETAILS", "EXPLICIT_INSTRUCTIONS"]

  validation {
    condition = alltrue([
      for t in var.managed_memory_topics :
      contains(["USER_PERSONAL_INFO", "USER_PREFERENCES", "KEY_CONVERSATION_DETAILS", "EXPLICIT_INSTRUCTIONS"], t)
    ])
    error_message = "managed_memory_topics may contain only USER_PERSONAL_INFO, USER_PREFERENCES, KEY_CONVERSATION_DETAILS and EXPLICIT_INSTRUCTIONS."
  }
}

variable "custom_memory_topics" {
  description = "Extra topics, each a label (snake_case) and a description that tells the generation model what belongs in it."
  type = list(object({
    label       = string
    description = string
  }))
  default = []

  validation {
    condition = alltrue([
      for t in var.custom_memory_topics :
      can(regex("^[a-z][a-z0-9_]{0,62}$", t.label)) && length(trimspace(t.description)) > 0
    ])
    error_message = "Each custom memory topic needs a snake_case label (at most 63 characters) and a non-empty description."
  }
}

variable "enable_third_person_memories" {
  description = "Have Memory Bank phrase generated memories in the third person (\"The user prefers tea\")."
  type        = bool
  default     = false
}

variable "memory_bank_deletion_policy" {
  description = "What `terraform destroy` does to the Reasoning Engine that holds the memories: PREVENT refuses, ABANDON forgets it, DELETE deletes an empty one, FORCE deletes it with all its memories."
  type        = string
  default     = "PREVENT"

  validation {
    condition     = contains(["PREVENT", "ABANDON", "DELETE", "FORCE"], var.memory_bank_deletion_policy)
    error_message = "memory_bank_deletion_policy must be PREVENT, ABANDON, DELETE or FORCE."
  }
}

variable "half_life_days" {
  description = "Half-life of adk-memory's temporal decay, written to the env file as ADK_MEMORY_HALF_LIFE_DAYS. null leaves the line out so the library default applies."
  type        = number
  default     = null

  validation {
    condition     = var.half_life_days == null || try(var.half_life_days > 0, false)
    error_message = "half_life_days must be null or a positive number of days."
  }
}

# --- Agent identity ------------------------------------------------------------------------------

variable "agent_impersonators" {
  description = "IAM members (user:, group:, serviceAccount:) allowed to act as the agent's service account, e.g. developers running `adk web` locally with impersonated credentials. Granted on the service account only."
  type        = list(string)
  default     = []

  validation {
    condition     = alltrue([for m in var.agent_impersonators : can(regex("^(user|group|serviceAccount|principal|principalSet):.+$", m))])
    error_message = "agent_impersonators entries must be IAM members such as user:dev@example.com or group:team@example.com."
  }
}

# --- Vector Search -------------------------------------------------------------------------------

variable "enable_vector_search" {
  description = "Create a streaming Vector Search index, an index endpoint and a deployed index for the adkmem+vectorsearch backend. A deployed index bills for its replicas around the clock."
  type        = bool
  default     = false
}

variable "embedding_dimensions" {
  description = "Vector length of the embedder adk-memory uses with Vector Search. 384 matches the bundled all-MiniLM-L6-v2; 768 matches text-embedding-005."
  type        = number
  default     = 384

  validation {
    condition     = var.embedding_dimensions > 0 && floor(var.embedding_dimensions) == var.embedding_dimensions
    error_message = "embedding_dimensions must be a positive whole number."
  }
}

variable "approximate_neighbors_count" {
  description = "Neighbours the tree-AH index finds approximately before exact reordering. Keep it at or above adk-memory's k x overfetch."
  type        = number
  default     = 100

  validation {
    condition     = var.approximate_neighbors_count > 0 && floor(var.approximate_neighbors_count) == var.approximate_neighbors_count
    error_message = "approximate_neighbors_count must be a positive whole number."
  }
}

variable "leaf_node_embedding_count" {
  description = "Embeddings per tree-AH leaf node."
  type        = number
  default     = 1000

  validation {
    condition     = var.leaf_node_embedding_count > 0 && floor(var.leaf_node_embedding_count) == var.leaf_node_embedding_count
    error_message = "leaf_node_embedding_count must be a positive whole number."
  }
}

variable "leaf_nodes_to_search_percent" {
  description = "Share of tree-AH leaf nodes a query searches, 1-100. Higher trades latency for recall."
  type        = number
  default     = 10

  validation {
    condition     = var.leaf_nodes_to_search_percent >= 1 && var.leaf_nodes_to_search_percent <= 100
    error_message = "leaf_nodes_to_search_percent must be between 1 and 100."
  }
}

variable "index_shard_size" {
  description = "Vector Search shard size: SHARD_SIZE_SMALL (2 GB), SHARD_SIZE_MEDIUM (20 GB) or SHARD_SIZE_LARGE (50 GB). Small allows the cheapest machines."
  type        = string
  default     = "SHARD_SIZE_SMALL"

  validation {
    condition     = contains(["SHARD_SIZE_SMALL", "SHARD_SIZE_MEDIUM", "SHARD_SIZE_LARGE"], var.index_shard_size)
    error_message = "index_shard_size must be SHARD_SIZE_SMALL, SHARD_SIZE_MEDIUM or SHARD_SIZE_LARGE."
  }
}

variable "vector_search_access" {
  description = "How clients reach the index endpoint: \"public\" (a public domain, IAM-authenticated) or \"private_service_connect\" (a PSC service attachment in your VPC)."
  type        = string
  default     = "public"

  validation {
    condition     = contains(["public", "private_service_connect"], var.vector_search_access)
    error_message = "vector_search_access must be \"public\" or \"private_service_connect\"."
  }
}

variable "psc_project_allowlist" {
  description = "Projects allowed to create PSC forwarding rules to the endpoint when vector_search_access is private_service_connect. Empty means this project only."
  type        = list(string)
  default     = []
}

variable "deployed_index_id" {
  description = "ID of the deployed index; it becomes the `deployed` parameter of the vector search URI."
  type        = string
  default     = "adk_memory"

  validation {
    condition     = can(regex("^[A-Za-z][A-Za-z0-9_]{0,127}$", var.deployed_index_id))
    error_message = "deployed_index_id must start with a letter and contain only letters, digits and underscores (at most 128 characters)."
  }
}

variable "deployed_index_replicas" {
  description = "Autoscaling bounds of the deployed index (automatic_resources). min = 1 is cheapest but has no SLA; use 2 or more in production."
  type = object({
    min = number
    max = number
  })
  default = {
    min = 1
    max = 2
  }

  validation {
    condition     = var.deployed_index_replicas.min >= 1 && var.deployed_index_replicas.max >= var.deployed_index_replicas.min && var.deployed_index_replicas.max <= 1000
    error_message = "deployed_index_replicas needs 1 <= min <= max <= 1000."
  }
}
