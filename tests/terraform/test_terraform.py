"""Static checks of terraform/: structure, key arguments, and the URIs the outputs produce.

No provider can be downloaded here, so `terraform validate` is out of reach; these tests read the
HCL with python-hcl2 and check what a reviewer would check by eye. `terraform fmt` runs when a
terraform binary is on PATH.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import hcl2
import pytest

from adk_memory.stores.uri import parse_store_uri

TERRAFORM_DIR = Path(__file__).resolve().parents[2] / "terraform"
MODULE_DIR = TERRAFORM_DIR / "modules" / "adk_memory"
EXAMPLE_DIR = TERRAFORM_DIR / "examples" / "basic"
ALL_TF_FILES = sorted(TERRAFORM_DIR.rglob("*.tf"))

# Keys python-hcl2 8.x adds for round-tripping; they are not part of the configuration.
_HCL2_META_KEYS = {"__is_block__", "__comments__", "__inline_comments__"}


def _unquote(value: str) -> str:
    """Strips the quotes python-hcl2 8.x keeps around string literals and block labels."""
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {_unquote(k): _plain(v) for k, v in node.items() if k not in _HCL2_META_KEYS}
    if isinstance(node, list):
        return [_plain(item) for item in node]
    if isinstance(node, str):
        return _unquote(node)
    return node


class Config:
    """The blocks of one Terraform directory, merged across its .tf files."""

    def __init__(self, directory: Path) -> None:
        self.resources: dict[tuple[str, str], dict[str, Any]] = {}
        self.variables: dict[str, dict[str, Any]] = {}
        self.outputs: dict[str, dict[str, Any]] = {}
        self.locals: dict[str, Any] = {}
        self.terraform: list[dict[str, Any]] = []
        self.modules: dict[str, dict[str, Any]] = {}
        for path in sorted(directory.glob("*.tf")):
            with path.open() as f:
                doc = _plain(hcl2.load(f))
            for entry in doc.get("resource", []):
                for rtype, named in entry.items():
                    for name, body in named.items():
                        self.resources[(rtype, name)] = body
            for kind, target in (
                ("variable", self.variables),
                ("output", self.outputs),
                ("module", self.modules),
            ):
                for entry in doc.get(kind, []):
                    target.update(entry)
            for entry in doc.get("locals", []):
                self.locals.update(entry)
            self.terraform.extend(doc.get("terraform", []))

    def resource(self, rtype: str, name: str) -> dict[str, Any]:
        assert (rtype, name) in self.resources, f"missing resource {rtype}.{name}"
        return self.resources[(rtype, name)]

    def of_type(self, rtype: str) -> list[dict[str, Any]]:
        return [body for (t, _), body in self.resources.items() if t == rtype]


@cache
def module() -> Config:
    return Config(MODULE_DIR)


@cache
def example() -> Config:
    return Config(EXAMPLE_DIR)


def block(body: dict[str, Any], *path: str) -> dict[str, Any]:
    """Follows nested single blocks, e.g. block(r, "context_spec", "memory_bank_config")."""
    for name in path:
        blocks = body.get(name)
        assert isinstance(blocks, list) and len(blocks) == 1, f"expected one {name!r} block"
        body = blocks[0]
    return body


def dynamic(body: dict[str, Any], name: str) -> dict[str, Any]:
    """The `dynamic "<name>"` block of a body: {"for_each": ..., "content": [...]}."""
    for entry in body.get("dynamic", []):
        if name in entry:
            found: dict[str, Any] = entry[name]
            return found
    raise AssertionError(f"missing dynamic {name!r} block")


def test_terraform_tree_has_module_and_example() -> None:
    assert (MODULE_DIR / "versions.tf").is_file()
    assert (EXAMPLE_DIR / "versions.tf").is_file()
    assert (TERRAFORM_DIR / "README.md").is_file()
    assert example().modules["adk_memory"]["source"] == "../../modules/adk_memory"


@pytest.mark.parametrize("path", ALL_TF_FILES, ids=lambda p: str(p.relative_to(TERRAFORM_DIR)))
def test_every_tf_file_parses(path: Path) -> None:
    with path.open() as f:
        assert isinstance(hcl2.load(f), dict)


@pytest.mark.parametrize("config", [module, example], ids=["module", "example"])
def test_versions_pin_terraform_and_both_providers(config: Any) -> None:
    (tf,) = config().terraform
    assert tf["required_version"] == ">= 1.5.0"
    (providers,) = tf["required_providers"]
    assert providers["google"]["source"] == "hashicorp/google"
    assert providers["google-beta"]["source"] == "hashicorp/google-beta"
    # memory_bank_config.customization_configs first shipped in google-beta 7.40.0.
    for name in ("google", "google-beta"):
        assert providers[name]["version"] == ">= 7.40.0, < 8.0.0"


def test_required_apis_enabled_and_left_on_destroy() -> None:
    svc = module().resource("google_project_service", "enabled")
    assert svc["disable_on_destroy"] is False
    assert svc["for_each"] == "${local.services}"
    services = module().locals["services"]
    for api in ("aiplatform", "iam", "cloudresourcemanager"):
        assert f'"{api}.googleapis.com"' in services


def test_reasoning_engine_memory_bank_config() -> None:
    engine = module().resource("google_vertex_ai_reasoning_engine", "memory_bank")
    # context_spec exists only in the beta provider.
    assert engine["provider"] == "google-beta"
    assert engine["region"] == "${var.region}"
    assert engine["deletion_policy"] == "${var.memory_bank_deletion_policy}"

    config = block(engine, "context_spec", "memory_bank_config")
    assert config["disable_memory_revisions"] == "${var.disable_memory_revisions}"
    assert block(config, "generation_config")["model"] == "${local.generation_model}"
    assert (
        block(config, "similarity_search_config")["embedding_model"] == "${local.embedding_model}"
    )
    assert "var.generation_model" in module().locals["generation_model"]
    assert "var.embedding_model" in module().locals["embedding_model"]
    assert "/publishers/google/models" in module().locals["model_prefix"]

    (ttl,) = dynamic(config, "ttl_config")["content"]
    assert "var.memory_ttl_days * 86400" in ttl["default_ttl"]
    assert "var.memory_revision_ttl_days * 86400" in ttl["memory_revision_default_ttl"]

    (custom,) = dynamic(config, "customization_configs")["content"]
    assert custom["scope_keys"] == "${var.memory_scope_keys}"
    topics = dynamic(custom, "memory_topics")
    assert topics["for_each"] == "${local.memory_topics}"
    (topic,) = topics["content"]
    (managed,) = dynamic(topic, "managed_memory_topic")["content"]
    assert managed == {"managed_topic_enum": "${managed_memory_topic.value}"}
    (custom_topic,) = dynamic(topic, "custom_memory_topic")["content"]
    assert set(custom_topic) == {"label", "description"}
    assert "var.managed_memory_topics" in module().locals["memory_topics"]
    assert "var.custom_memory_topics" in module().locals["memory_topics"]


def test_memory_bank_defaults() -> None:
    variables = module().variables
    assert variables["generation_model"]["default"] == "gemini-2.5-flash"
    assert variables["embedding_model"]["default"] == "text-embedding-005"
    assert variables["memory_scope_keys"]["default"] == ["app_name", "user_id"]
    assert "USER_PREFERENCES" in variables["managed_memory_topics"]["default"]
    # Deleting the engine deletes every memory: destroy must be opted into.
    assert variables["memory_bank_deletion_policy"]["default"] == "PREVENT"


VECTOR_SEARCH_RESOURCES = (
    "google_vertex_ai_index",
    "google_vertex_ai_index_endpoint",
    "google_vertex_ai_index_endpoint_deployed_index",
)


@pytest.mark.parametrize("rtype", VECTOR_SEARCH_RESOURCES)
def test_vector_search_is_behind_the_flag(rtype: str) -> None:
    resource = module().resource(rtype, "memory")
    assert resource["count"] == "${var.enable_vector_search ? 1 : 0}"
    assert module().variables["enable_vector_search"]["default"] is False


def test_vector_search_index_streams_unit_vectors() -> None:
    index = module().resource("google_vertex_ai_index", "memory")
    assert index["index_update_method"] == "STREAM_UPDATE"
    config = block(index, "metadata", "config")
    assert config["dimensions"] == "${var.embedding_dimensions}"
    # Unit-length vectors: dot product over L2-normalised features is cosine similarity.
    assert config["distance_measure_type"] == "DOT_PRODUCT_DISTANCE"
    assert config["feature_norm_type"] == "UNIT_L2_NORM"
    assert config["approximate_neighbors_count"] == "${var.approximate_neighbors_count}"
    tree_ah = block(config, "algorithm_config", "tree_ah_config")
    assert tree_ah["leaf_nodes_to_search_percent"] == "${var.leaf_nodes_to_search_percent}"
    # all-MiniLM-L6-v2, the bundled embedder, emits 384 dimensions.
    assert module().variables["embedding_dimensions"]["default"] == 384


def test_index_endpoint_is_public_by_default_with_psc_option() -> None:
    endpoint = module().resource("google_vertex_ai_index_endpoint", "memory")
    assert endpoint["public_endpoint_enabled"] == '${var.vector_search_access == "public"}'
    assert module().variables["vector_search_access"]["default"] == "public"
    psc = dynamic(endpoint, "private_service_connect_config")
    assert "private_service_connect" in psc["for_each"]
    (content,) = psc["content"]
    assert content["enable_private_service_connect"] is True


def test_deployed_index_autoscales_within_variable_bounds() -> None:
    deployed = module().resource("google_vertex_ai_index_endpoint_deployed_index", "memory")
    assert deployed["index"] == "${google_vertex_ai_index.memory[0].id}"
    assert deployed["index_endpoint"] == "${google_vertex_ai_index_endpoint.memory[0].id}"
    assert deployed["deployed_index_id"] == "${var.deployed_index_id}"
    resources = block(deployed, "automatic_resources")
    assert resources["min_replica_count"] == "${var.deployed_index_replicas.min}"
    assert resources["max_replica_count"] == "${var.deployed_index_replicas.max}"
    assert module().variables["deployed_index_replicas"]["default"] == {"min": 1, "max": 2}


def test_agent_service_account_is_least_privilege() -> None:
    sa = module().resource("google_service_account", "agent")
    assert sa["account_id"] == "${var.name_prefix}-agent"

    project_roles = {r["role"] for r in module().of_type("google_project_iam_member")}
    assert project_roles == {"roles/aiplatform.user"}
    binding = module().resource("google_project_iam_member", "agent_aiplatform_user")
    assert binding["member"] == "${google_service_account.agent.member}"

    # Impersonation is granted on the service account itself, never project-wide.
    (token_creator,) = module().of_type("google_service_account_iam_member")
    assert token_creator["role"] == "roles/iam.serviceAccountTokenCreator"
    assert token_creator["service_account_id"] == "${google_service_account.agent.name}"

    (kms,) = module().of_type("google_kms_crypto_key_iam_member")
    assert kms["role"] == "roles/cloudkms.cryptoKeyEncrypterDecrypter"
    assert kms["crypto_key_id"] == "${var.kms_key_name}"

    for iam_type in ("google_project_iam_binding", "google_project_iam_policy"):
        assert not module().of_type(iam_type), f"{iam_type} is authoritative; use *_iam_member"


@pytest.mark.parametrize(
    "rtype, name",
    [
        ("google_vertex_ai_reasoning_engine", "memory_bank"),
        ("google_vertex_ai_index", "memory"),
        ("google_vertex_ai_index_endpoint", "memory"),
    ],
)
def test_cmek_and_labels_where_supported(rtype: str, name: str) -> None:
    resource = module().resource(rtype, name)
    assert resource["labels"] == "${local.labels}"
    encryption = dynamic(resource, "encryption_spec")
    assert "var.kms_key_name" in encryption["for_each"]
    (content,) = encryption["content"]
    assert content == {"kms_key_name": "${encryption_spec.value}"}
    assert "var.labels" in module().locals["labels"]


@pytest.mark.parametrize("config", [module, example], ids=["module", "example"])
def test_every_variable_has_description_and_type(config: Any) -> None:
    assert config().variables
    for name, variable in config().variables.items():
        assert str(variable.get("description", "")).strip(), f"{name} has no description"
        assert "type" in variable, f"{name} has no type"


@pytest.mark.parametrize(
    "name",
    [
        "project_id",
        "region",
        "name_prefix",
        "labels",
        "kms_key_name",
        "memory_ttl_days",
        "memory_revision_ttl_days",
        "half_life_days",
        "managed_memory_topics",
        "custom_memory_topics",
        "memory_bank_deletion_policy",
        "agent_impersonators",
        "embedding_dimensions",
        "approximate_neighbors_count",
        "leaf_nodes_to_search_percent",
        "index_shard_size",
        "vector_search_access",
        "deployed_index_id",
        "deployed_index_replicas",
    ],
)
def test_variable_has_validation(name: str) -> None:
    validations = module().variables[name].get("validation", [])
    assert validations, f"{name} has no validation block"
    for validation in validations:
        assert f"var.{name}" in validation["condition"]
        assert validation["error_message"].strip()


def test_validation_conditions_state_the_intended_rules() -> None:
    def condition(name: str) -> str:
        (validation,) = module().variables[name]["validation"]
        text: str = validation["condition"]
        return text

    assert "regex(" in condition("region")
    assert "var.half_life_days > 0" in condition("half_life_days")
    assert "var.memory_ttl_days > 0" in condition("memory_ttl_days")
    assert "var.embedding_dimensions > 0" in condition("embedding_dimensions")
    replicas = condition("deployed_index_replicas")
    assert "var.deployed_index_replicas.max >= var.deployed_index_replicas.min" in replicas
    assert "var.deployed_index_replicas.min >= 1" in replicas


MODULE_OUTPUTS = {
    "memory_bank_uri",
    "vector_search_uri",
    "service_account_email",
    "reasoning_engine_id",
    "vector_search_public_domain",
    "env_file",
}


def test_outputs_exist_with_descriptions() -> None:
    assert set(module().outputs) == MODULE_OUTPUTS
    assert set(example().outputs) == {
        "memory_bank_uri",
        "vector_search_uri",
        "service_account_email",
        "env_file",
    }
    for config in (module(), example()):
        for name, output in config.outputs.items():
            assert output["description"].strip(), f"output {name} has no description"
    for name in example().outputs:
        assert example().outputs[name]["value"] == f"${{module.adk_memory.{name}}}"


def test_uri_outputs_have_the_project_uri_shape() -> None:
    outputs, local = module().outputs, module().locals
    assert outputs["memory_bank_uri"]["value"] == "${local.memory_bank_uri}"
    assert outputs["vector_search_uri"]["value"] == "${local.vector_search_uri}"
    assert outputs["service_account_email"]["value"] == "${google_service_account.agent.email}"

    memory_bank = local["memory_bank_uri"]
    assert memory_bank.startswith("adkmem+memorybank://projects/")
    assert "/reasoningEngines/" in memory_bank
    # `name` is the engine's short ID; `id` would repeat projects/.../reasoningEngines/.
    assert memory_bank.endswith("${google_vertex_ai_reasoning_engine.memory_bank.name}")

    vector = local["vector_search_uri"]
    assert vector.startswith("${var.enable_vector_search ? ")
    assert vector.endswith(" : null}")
    assert "adkmem+vectorsearch://projects/" in vector
    assert "/indexEndpoints/" in vector and "?index=" in vector and "&deployed=" in vector


def test_env_file_carries_the_project_configuration() -> None:
    assert module().outputs["env_file"]["value"] == '${join("\\n", local.env_lines)}\\n'
    lines = module().locals["env_lines"]
    for expected in (
        '"GOOGLE_CLOUD_PROJECT=${var.project_id}"',
        '"GOOGLE_CLOUD_LOCATION=${var.region}"',
        '"GOOGLE_GENAI_USE_VERTEXAI=1"',
        '"ADK_MEMORY_STORE=${local.memory_bank_uri}"',
        '"ADK_MEMORY_LLM=gemini"',
        '"ADK_MEMORY_HALF_LIFE_DAYS=${var.half_life_days}"',
    ):
        assert expected in lines


# What each interpolation in the URI templates evaluates to after an apply in project
# demo-proj; an interpolation missing here means the template changed and this test must too.
PLACEHOLDERS = {
    "var.project_id": "demo-proj",
    "var.region": "us-central1",
    "google_vertex_ai_reasoning_engine.memory_bank.name": "123",
    "google_vertex_ai_index_endpoint.memory[0].name": "456",
    "google_vertex_ai_index.memory[0].name": "789",
    "google_vertex_ai_index_endpoint_deployed_index.memory[0].deployed_index_id": "adk_memory",
}


def render(template: str) -> str:
    return re.sub(r"\$\{([^}]*)\}", lambda m: PLACEHOLDERS[m.group(1).strip()], template)


def test_memory_bank_uri_parses_with_the_project_parser() -> None:
    uri = render(module().locals["memory_bank_uri"])
    assert (
        uri == "adkmem+memorybank://projects/demo-proj/locations/us-central1/reasoningEngines/123"
    )
    parsed = parse_store_uri(uri)
    assert parsed.backend == "memorybank"
    assert parsed.location == "projects/demo-proj/locations/us-central1/reasoningEngines/123"


def test_vector_search_uri_parses_with_the_project_parser() -> None:
    match = re.search(r'"(adkmem\+vectorsearch://[^"]*)"', module().locals["vector_search_uri"])
    assert match, "vector_search_uri holds no adkmem+vectorsearch:// template"
    uri = render(match.group(1))
    assert uri == (
        "adkmem+vectorsearch://projects/demo-proj/locations/us-central1/indexEndpoints/456"
        "?index=789&deployed=adk_memory"
    )
    parsed = parse_store_uri(uri)
    assert parsed.backend == "vectorsearch"
    assert parsed.location == "projects/demo-proj/locations/us-central1/indexEndpoints/456"
    assert parsed.params == {"index": "789", "deployed": "adk_memory"}


def _terraform_binary() -> str:
    terraform = shutil.which("terraform")
    if terraform is None:
        pytest.skip("no terraform binary on PATH; the terraform CLI checks are not run")
    return terraform


def test_terraform_fmt_is_clean() -> None:
    terraform = _terraform_binary()
    result = subprocess.run(
        [terraform, "fmt", "-check", "-recursive", "-diff", str(TERRAFORM_DIR)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, f"terraform fmt would change:\n{result.stdout}"


# Values the module must accept or refuse. Each case runs `terraform plan` on a copy of
# variables.tf alone: it needs no provider, so the validation rules themselves are executed.
VALIDATION_CASES = [
    ({}, True),
    ({"region": "europe-west4", "labels": {"env": "dev"}}, True),
    ({"deployed_index_replicas": {"min": 2, "max": 2}}, True),
    ({"custom_memory_topics": [{"label": "travel_plans", "description": "Trips"}]}, True),
    ({"kms_key_name": "projects/p/locations/us-central1/keyRings/r/cryptoKeys/k"}, True),
    ({"region": "us"}, False),
    ({"project_id": "123456789"}, False),
    ({"half_life_days": 0}, False),
    ({"memory_ttl_days": -1}, False),
    ({"memory_revision_ttl_days": 0}, False),
    ({"embedding_dimensions": 0}, False),
    ({"embedding_dimensions": 1.5}, False),
    ({"deployed_index_replicas": {"min": 3, "max": 2}}, False),
    ({"deployed_index_replicas": {"min": 0, "max": 2}}, False),
    ({"leaf_nodes_to_search_percent": 101}, False),
    ({"managed_memory_topics": ["FAVOURITE_COLOURS"]}, False),
    ({"custom_memory_topics": [{"label": "Travel Plans", "description": "Trips"}]}, False),
    ({"kms_key_name": "my-key"}, False),
    ({"labels": {"Env": "dev"}}, False),
    ({"vector_search_access": "vpc_peering"}, False),
    ({"deployed_index_id": "1st"}, False),
    ({"memory_bank_deletion_policy": "KEEP"}, False),
    ({"agent_impersonators": ["dev@example.com"]}, False),
    ({"name_prefix": "adk-memory-with-a-long-name"}, False),
]


@pytest.mark.parametrize(
    "overrides, valid", VALIDATION_CASES, ids=[json.dumps(c[0]) for c in VALIDATION_CASES]
)
def test_variable_validations_with_terraform(
    overrides: dict[str, Any], valid: bool, tmp_path: Path
) -> None:
    terraform = _terraform_binary()
    shutil.copy(MODULE_DIR / "variables.tf", tmp_path / "variables.tf")
    (tmp_path / "case.tfvars.json").write_text(json.dumps({"project_id": "demo-proj", **overrides}))
    result = subprocess.run(
        [terraform, "plan", "-input=false", "-no-color", "-var-file=case.tfvars.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if valid:
        assert result.returncode == 0, result.stderr
    else:
        assert result.returncode != 0
        assert "Invalid value for variable" in result.stderr, result.stderr
