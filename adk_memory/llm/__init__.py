"""Structured JSON from a model: the seam the model-driven extractor, classifier and summariser
share (`base.StructuredModel`), and its implementation over any ADK `BaseLlm` (`adk`).

The google-genai implementation lives with the rest of the Gemini plumbing
(`adk_memory.google_api.gemini.GeminiStructuredModel`); both run the one validate-and-correct
loop of `base.generate_validated`.
"""
