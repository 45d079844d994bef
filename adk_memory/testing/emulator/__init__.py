"""Offline fakes of the Google services adk-memory uses, on their real wire formats.

Point the real SDKs at a running emulator (base URL + fake token credentials) and the same
code paths run as in production: `adk-memory emulator`, or `EmulatorServer` in tests.
"""

from adk_memory.testing.emulator.app import EmulatorState, create_app
from adk_memory.testing.emulator.faults import FaultConfig, FaultInjector
from adk_memory.testing.emulator.server import EmulatorServer, run

__all__ = [
    "EmulatorServer",
    "EmulatorState",
    "FaultConfig",
    "FaultInjector",
    "create_app",
    "run",
]
