"""stores/memory_bank"""
