"""A sample agent with long-term memory.

    adk web agents --memory_service_uri=adkmem+sqlite:///./memory.db

`MemoryPlugin` prefetches what the agent remembers about the user for every turn and saves
each turn in the background; `load_memory` lets the model search memory itself. Set
`ADK_MEMORY_AGENT_MODEL` to choose the Gemini model, or to `scripted` to run offline.
"""

from __future__ import annotations

from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.models.base_llm import BaseLlm
from google.adk.tools.load_memory_tool import load_memory_tool

from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.config import Settings
from adk_memory.testing.scripted_llm import ScriptedLlm

DEFAULT_MODEL = "gemini-2.5-flash"


def _model() -> str | BaseLlm:
    name = Settings.from_env().agent_model or DEFAULT_MODEL
    return ScriptedLlm() if name == "scripted" else name


root_agent = LlmAgent(
    name="memory_agent",
    model=_model(),
    description="A helpful assistant that remembers the user across sessions.",
    instruction=(
        "You are a helpful personal assistant with long-term memory. Use what you remember "
        "about the user to personalise your answers, and when memories disagree trust the "
        "newer one. If you need something you may have been told in an earlier "
        "conversation, call load_memory. Never claim to remember what is not in memory."
    ),
    tools=[load_memory_tool],
)

app = App(name="memory_agent", root_agent=root_agent, plugins=[MemoryPlugin()])
