"""The Gemini surface of the emulator: wire shapes, schemas, scripts, faults and counters."""

from __future__ import annotations

import json

import httpx
import pytest
from google import genai
from google.genai import errors, types
from pydantic import BaseModel

from adk_memory.testing.emulator import EmulatorServer
from adk_memory.testing.emulator.gemini import conform, example_of
from tests.support.gemini import Admin


class Pet(BaseModel):
    name: str
    legs: int
    kind: str | None = None


class Pets(BaseModel):
    pets: list[Pet]
    total: int


GEMINI_SCHEMA = {
    "type": "OBJECT",
    "properties": {
        "pets": {
            "type": "ARRAY",
            "items": {
                "type": "OBJECT",
                "properties": {
                    "name": {"type": "STRING"},
                    "mood": {"type": "STRING", "enum": ["calm", "wild"]},
                    "age": {"type": "INTEGER", "nullable": True},
                },
                "required": ["name", "mood"],
            },
        }
    },
    "required": ["pets"],
}


def test_conform_to_gemini_schema() -> None:
    value = {"pets": [{"name": "Rex", "mood": "grumpy", "extra": 1}, {"age": "x"}], "junk": True}
    assert conform(value, GEMINI_SCHEMA) == {
        "pets": [{"name": "Rex", "mood": "calm"}, {"age": None, "name": "", "mood": "calm"}]
    }
    assert example_of(GEMINI_SCHEMA) == {"pets": []}


def test_conform_to_json_schema_with_refs() -> None:
    schema = Pets.model_json_schema()
    assert example_of(schema) == {"pets": [], "total": 0}
    shaped = conform({"pets": [{"name": "Tom", "legs": 4.0, "kind": None, "x": 1}]}, schema)
    assert shaped == {"pets": [{"name": "Tom", "legs": 0, "kind": None}], "total": 0}
    Pets.model_validate(shaped)


@pytest.mark.parametrize("flavour", ["response_schema", "response_json_schema"])
async def test_reply_honours_the_requested_schema(
    client: genai.Client, admin: Admin, flavour: str
) -> None:
    if flavour == "response_schema":
        config = types.GenerateContentConfig(
            response_mime_type="application/json", response_schema=Pets
        )
    else:
        config = types.GenerateContentConfig(
            response_mime_type="application/json", response_json_schema=Pets.model_json_schema()
        )
    response = await client.aio.models.generate_content(
        model="gemini-2.5-flash", contents="List my pets.", config=config
    )
    assert Pets.model_validate_json(response.text or "") == Pets(pets=[], total=0)
    usage = response.usage_metadata
    assert usage is not None and usage.total_token_count == admin.stats()["total_tokens"]


async def test_scripted_replies_are_served_in_order(client: genai.Client, admin: Admin) -> None:
    admin.script({"text": "first"}, {"json": {"n": 2}, "total_tokens": 7})
    texts = []
    for _ in range(3):
        response = await client.aio.models.generate_content(model="m", contents="hi")
        texts.append(response.text)
    assert texts == ["first", json.dumps({"n": 2}), "OK"]
    stats = admin.stats()
    assert stats["calls_by_task"] == {"scripted": 2, "other": 1}
    assert stats["scripted_remaining"] == 0


async def test_errors_use_the_google_envelope(client: genai.Client, admin: Admin) -> None:
    admin.script({"status": 429, "message": "slow down"})
    with pytest.raises(errors.ClientError) as caught:
        await client.aio.models.generate_content(model="m", contents="hi")
    assert caught.value.code == 429 and caught.value.status == "RESOURCE_EXHAUSTED"


async def test_enum_mime_type(client: genai.Client, admin: Admin) -> None:
    config = types.GenerateContentConfig(
        response_mime_type="text/x.enum",
        response_schema={"type": "STRING", "enum": ["yes", "no"]},
    )
    response = await client.aio.models.generate_content(model="m", contents="?", config=config)
    assert response.text == "yes"


async def test_vertex_generate_content_path(server: EmulatorServer, admin: Admin) -> None:
    from google.oauth2.credentials import Credentials

    vertex = genai.Client(
        vertexai=True,
        project="p",
        location="europe-west4",
        credentials=Credentials(token="fake"),  # type: ignore[no-untyped-call]
        http_options=types.HttpOptions(base_url=server.base_url),
    )
    response = await vertex.aio.models.generate_content(model="gemini-2.5-flash", contents="hi")
    assert response.text == "OK"
    assert admin.requests()[0]["path"] == (
        "/v1beta1/projects/p/locations/europe-west4/publishers/google/models/"
        "gemini-2.5-flash:generateContent"
    )


def test_reset_and_unknown_version(server: EmulatorServer, admin: Admin) -> None:
    admin.script({"text": "x"})
    admin.faults(fail_statuses=[503])
    reset = admin.http.post("/emulator/gemini/reset").json()
    assert reset["scripted_remaining"] == 0
    assert admin.http.post("/emulator/gemini/faults", json={}).json()["fail_statuses"] == []
    response = httpx.post(f"{server.base_url}/v9/models/m:generateContent", json={})
    assert response.status_code == 404
    assert response.json()["error"]["status"] == "NOT_FOUND"
