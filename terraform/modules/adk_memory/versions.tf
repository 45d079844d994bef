terraform {
  # Variable validations here refer only to their own variable, so 1.5 suffices (cross-variable
  # validation would need 1.9; replica bounds are one object variable for that reason).
  required_version = ">= 1.5.0"

  required_providers {
    google = {
      source  = "hashicorp/google"
      version = ">= 7.40.0, < 8.0.0"
    }
    # `context_spec` on google_vertex_ai_reasoning_engine is beta-only; it arrived in 7.27.0 and
    # `customization_configs` (memory topics) in 7.40.0, which is therefore the floor.
    google-beta = {
      source  = "hashicorp/google-beta"
      version = ">= 7.40.0, < 8.0.0"
    }
  }
}
