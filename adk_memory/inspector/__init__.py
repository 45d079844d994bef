"""A local web inspector of what an agent remembers: scopes, memories, histories, recall.

Mount it in any FastAPI app (`inspector_router`), or run it with `adk-memory inspect`.
"""

from adk_memory.inspector.auth import new_token
from adk_memory.inspector.routes import create_app, inspector_router

__all__ = ["create_app", "inspector_router", "new_token"]
