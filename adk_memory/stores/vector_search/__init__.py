"""stores/vector_search"""
