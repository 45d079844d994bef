locals {
  labels = merge(
    {
      app        = "adk-memory"
      managed-by = "terraform"
    },
    var.labels,
  )

  # aiplatform: Memory Bank, Gemini, embeddings, Vector Search. iam: the agent's service account.
  # cloudresourcemanager: the project-level role binding.
  services = var.enable_apis ? toset([
    "aiplatform.googleapis.com",
    "cloudresourcemanager.googleapis.com",
    "iam.googleapis.com",
  ]) : toset([])

  model_prefix     = "projects/${var.project_id}/locations/${var.region}/publishers/google/models"
  generation_model = startswith(var.generation_model, "projects/") ? var.generation_model : "${local.model_prefix}/${var.generation_model}"
  embedding_model  = startswith(var.embedding_model, "projects/") ? var.embedding_model : "${local.model_prefix}/${var.embedding_model}"

  memory_topics = concat(
    [for t in var.managed_memory_topics : { managed = t, custom = null }],
    [for t in var.custom_memory_topics : { managed = null, custom = t }],
  )

  # The URIs are the strings adk-memory parses (adk_memory/uri.py), so outputs feed
  # --memory_service_uri and ADK_MEMORY_STORE unchanged. `name` is the short resource ID.
  memory_bank_uri = "adkmem+memorybank://projects/${var.project_id}/locations/${var.region}/reasoningEngines/${google_vertex_ai_reasoning_engine.memory_bank.name}"

  vector_search_uri = var.enable_vector_search ? "adkmem+vectorsearch://projects/${var.project_id}/locations/${var.region}/indexEndpoints/${google_vertex_ai_index_endpoint.memory[0].name}?index=${google_vertex_ai_index.memory[0].name}&deployed=${google_vertex_ai_index_endpoint_deployed_index.memory[0].deployed_index_id}" : null

  env_lines = concat(
    [
      "GOOGLE_CLOUD_PROJECT=${var.project_id}",
      "GOOGLE_CLOUD_LOCATION=${var.region}",
      "GOOGLE_GENAI_USE_VERTEXAI=1",
      "ADK_MEMORY_STORE=${local.memory_bank_uri}",
      "ADK_MEMORY_LLM=gemini",
    ],
    var.half_life_days == null ? [] : ["ADK_MEMORY_HALF_LIFE_DAYS=${var.half_life_days}"],
  )
}

resource "google_project_service" "enabled" {
  for_each = local.services

  project            = var.project_id
  service            = each.value
  disable_on_destroy = false
}
