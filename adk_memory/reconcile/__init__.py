"""reconcile"""
