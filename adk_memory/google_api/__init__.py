"""google_api"""
