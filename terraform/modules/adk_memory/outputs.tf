output "memory_bank_uri" {
  description = "Store URI of the Memory Bank: pass it to `adk web --memory_service_uri` or set it as ADK_MEMORY_STORE."
  value       = local.memory_bank_uri
}

output "vector_search_uri" {
  description = "Store URI of the Vector Search backend (adkmem+vectorsearch://...), or null when enable_vector_search is false."
  value       = local.vector_search_uri
}

output "service_account_email" {
  description = "Email of the service account the agent should run as."
  value       = google_service_account.agent.email
}

output "reasoning_engine_id" {
  description = "Full resource name of the Reasoning Engine that hosts the Memory Bank."
  value       = google_vertex_ai_reasoning_engine.memory_bank.id
}

output "vector_search_public_domain" {
  description = "Public domain of the index endpoint (findNeighbors host), or null when Vector Search is off or private."
  value       = var.enable_vector_search ? google_vertex_ai_index_endpoint.memory[0].public_endpoint_domain_name : null
}

output "env_file" {
  description = "Lines for the project's .env: `terraform output -raw env_file > .env`."
  value       = "${join("\n", local.env_lines)}\n"
}
