# The identity the ADK agent runs as (Cloud Run, GKE, Agent Engine, or a developer impersonating it).
resource "google_service_account" "agent" {
  project      = var.project_id
  account_id   = "${var.name_prefix}-agent"
  display_name = "adk-memory agent"
  description  = "Runs ADK agents that read and write long-term memory through adk-memory."

  depends_on = [google_project_service.enabled]
}

# roles/aiplatform.user is the one role the agent needs, and the narrowest predefined role that
# covers its three kinds of call:
#   - Memory Bank: reasoningEngines.memories create/retrieve/list/get/delete/generate;
#   - Gemini and embeddings (extraction, reconciliation, query embedding): predict on publisher
#     models, which live at project scope, so a per-resource grant cannot cover them;
#   - Vector Search: upsertDatapoints/removeDatapoints on the index, findNeighbors on the endpoint.
# It grants no IAM administration, no service account impersonation and no access outside Vertex AI.
resource "google_project_iam_member" "agent_aiplatform_user" {
  project = var.project_id
  role    = "roles/aiplatform.user"
  member  = google_service_account.agent.member
}

# Lets named developers mint tokens for the agent's identity (local `adk web` with impersonated
# credentials), granted on this one service account rather than project-wide.
resource "google_service_account_iam_member" "agent_impersonators" {
  for_each = toset(var.agent_impersonators)

  service_account_id = google_service_account.agent.name
  role               = "roles/iam.serviceAccountTokenCreator"
  member             = each.value
}

# CMEK: Vertex AI encrypts the Reasoning Engine, the index and the endpoint as its service agent,
# which therefore needs to use the key (and only that key).
resource "google_project_service_identity" "vertex_ai" {
  count    = var.kms_key_name != null && var.grant_kms_to_service_agent ? 1 : 0
  provider = google-beta

  project = var.project_id
  service = "aiplatform.googleapis.com"

  depends_on = [google_project_service.enabled]
}

resource "google_kms_crypto_key_iam_member" "vertex_service_agent" {
  count = var.kms_key_name != null && var.grant_kms_to_service_agent ? 1 : 0

  crypto_key_id = var.kms_key_name
  role          = "roles/cloudkms.cryptoKeyEncrypterDecrypter"
  member        = google_project_service_identity.vertex_ai[0].member
}
