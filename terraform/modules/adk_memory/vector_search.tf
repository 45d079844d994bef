# Streaming index: adk-memory writes with upsertDatapoints and needs every fact searchable at once;
# BATCH_UPDATE would need a Cloud Storage bucket and rebuilds. The embedder emits unit-length
# vectors, so DOT_PRODUCT_DISTANCE over UNIT_L2_NORM features ranks exactly like cosine similarity.
resource "google_vertex_ai_index" "memory" {
  count    = var.enable_vector_search ? 1 : 0
  provider = google-beta

  project             = var.project_id
  region              = var.region
  display_name        = "${var.name_prefix}-memories"
  description         = "adk-memory facts (streaming updates, cosine similarity)."
  labels              = local.labels
  index_update_method = "STREAM_UPDATE"

  metadata {
    config {
      dimensions                  = var.embedding_dimensions
      approximate_neighbors_count = var.approximate_neighbors_count
      shard_size                  = var.index_shard_size
      distance_measure_type       = "DOT_PRODUCT_DISTANCE"
      feature_norm_type           = "UNIT_L2_NORM"

      algorithm_config {
        tree_ah_config {
          leaf_node_embedding_count    = var.leaf_node_embedding_count
          leaf_nodes_to_search_percent = var.leaf_nodes_to_search_percent
        }
      }
    }
  }

  dynamic "encryption_spec" {
    for_each = var.kms_key_name == null ? [] : [var.kms_key_name]
    content {
      kms_key_name = encryption_spec.value
    }
  }

  depends_on = [
    google_project_service.enabled,
    google_kms_crypto_key_iam_member.vertex_service_agent,
  ]
}

resource "google_vertex_ai_index_endpoint" "memory" {
  #checkov:skip=CKV2_GCP_34:Public is the default on purpose (works from laptops and Cloud Run without a VPC, every call is IAM-authenticated); vector_search_access = "private_service_connect" makes it private.
  count    = var.enable_vector_search ? 1 : 0
  provider = google-beta

  project                 = var.project_id
  region                  = var.region
  display_name            = "${var.name_prefix}-memories"
  description             = "Serves the adk-memory index."
  labels                  = local.labels
  public_endpoint_enabled = var.vector_search_access == "public"

  dynamic "private_service_connect_config" {
    for_each = var.vector_search_access == "private_service_connect" ? [1] : []
    content {
      enable_private_service_connect = true
      project_allowlist              = length(var.psc_project_allowlist) > 0 ? var.psc_project_allowlist : [var.project_id]
    }
  }

  dynamic "encryption_spec" {
    for_each = var.kms_key_name == null ? [] : [var.kms_key_name]
    content {
      kms_key_name = encryption_spec.value
    }
  }

  depends_on = [
    google_project_service.enabled,
    google_kms_crypto_key_iam_member.vertex_service_agent,
  ]
}

resource "google_vertex_ai_index_endpoint_deployed_index" "memory" {
  count    = var.enable_vector_search ? 1 : 0
  provider = google-beta

  region            = var.region
  index_endpoint    = google_vertex_ai_index_endpoint.memory[0].id
  index             = google_vertex_ai_index.memory[0].id
  deployed_index_id = var.deployed_index_id
  display_name      = "${var.name_prefix}-memories"

  automatic_resources {
    min_replica_count = var.deployed_index_replicas.min
    max_replica_count = var.deployed_index_replicas.max
  }
}
