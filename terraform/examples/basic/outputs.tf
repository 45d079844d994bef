output "memory_bank_uri" {
  description = "Value for `adk web --memory_service_uri` and ADK_MEMORY_STORE."
  value       = module.adk_memory.memory_bank_uri
}

output "vector_search_uri" {
  description = "Store URI of the Vector Search backend, or null when it is disabled."
  value       = module.adk_memory.vector_search_uri
}

output "service_account_email" {
  description = "Service account the agent should run as."
  value       = module.adk_memory.service_account_email
}

output "env_file" {
  description = "The project's .env: `terraform output -raw env_file > ../../../.env`."
  value       = module.adk_memory.env_file
}
