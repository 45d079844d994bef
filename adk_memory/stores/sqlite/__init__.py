"""stores/sqlite"""
