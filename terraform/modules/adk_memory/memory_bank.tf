resource "google_vertex_ai_reasoning_engine" "memory_bank" {
  provider = google-beta

  project         = var.project_id
  region          = var.region
  display_name    = "${var.name_prefix}-memory-bank"
  description     = "Long-term memory for ADK agents (adk-memory)."
  labels          = local.labels
  deletion_policy = var.memory_bank_deletion_policy

  dynamic "encryption_spec" {
    for_each = var.kms_key_name == null ? [] : [var.kms_key_name]
    content {
      kms_key_name = encryption_spec.value
    }
  }

  context_spec {
    memory_bank_config {
      disable_memory_revisions = var.disable_memory_revisions

      generation_config {
        model = local.generation_model
      }

      similarity_search_config {
        embedding_model = local.embedding_model
      }

      dynamic "ttl_config" {
        for_each = var.memory_ttl_days == null && var.memory_revision_ttl_days == null ? [] : [1]
        content {
          default_ttl                 = var.memory_ttl_days == null ? null : "${floor(var.memory_ttl_days * 86400)}s"
          memory_revision_default_ttl = var.memory_revision_ttl_days == null ? null : "${floor(var.memory_revision_ttl_days * 86400)}s"
        }
      }

      dynamic "customization_configs" {
        for_each = length(local.memory_topics) == 0 ? [] : [1]
        content {
          scope_keys                   = var.memory_scope_keys
          enable_third_person_memories = var.enable_third_person_memories

          dynamic "memory_topics" {
            for_each = local.memory_topics
            content {
              dynamic "managed_memory_topic" {
                for_each = memory_topics.value.managed == null ? [] : [memory_topics.value.managed]
                content {
                  managed_topic_enum = managed_memory_topic.value
                }
              }
              dynamic "custom_memory_topic" {
                for_each = memory_topics.value.custom == null ? [] : [memory_topics.value.custom]
                content {
                  label       = custom_memory_topic.value.label
                  description = custom_memory_topic.value.description
                }
              }
            }
          }
        }
      }
    }
  }

  depends_on = [
    google_project_service.enabled,
    google_kms_crypto_key_iam_member.vertex_service_agent,
  ]
}
