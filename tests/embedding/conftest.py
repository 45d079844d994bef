from tests.support.gemini import (  # noqa: F401  (fixtures for the Gemini-on-emulator tests)
    admin,
    admin_api,
    client,
    module_client,
    server,
    settings,
)
