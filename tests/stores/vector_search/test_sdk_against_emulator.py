"""The real gapic REST clients (`aiplatform_v1`, `aiplatform_v1beta1`) against the emulator."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from google.api_core import exceptions as api_exceptions
from google.cloud import aiplatform_v1 as v1
from google.cloud import aiplatform_v1beta1 as v1beta1
from google.oauth2.credentials import Credentials
from google.protobuf import json_format, struct_pb2  # type: ignore[import-untyped]

from adk_memory.testing.emulator import EmulatorServer
from tests.stores.vector_search.support import PARENT, new_deployment

R = v1.IndexDatapoint.Restriction


def clients(server: EmulatorServer, module: Any = v1) -> tuple[Any, Any, Any]:
    options = {"api_endpoint": server.base_url}
    credentials = Credentials(token="fake")  # type: ignore[no-untyped-call]
    return (
        module.IndexServiceClient(
            credentials=credentials, transport="rest", client_options=options
        ),
        module.IndexEndpointServiceClient(
            credentials=credentials, transport="rest", client_options=options
        ),
        module.MatchServiceClient(
            credentials=credentials, transport="rest", client_options=options
        ),
    )


def query(vector: list[float], count: int = 10, **datapoint: Any) -> Any:
    return v1.FindNeighborsRequest.Query(
        datapoint=v1.IndexDatapoint(feature_vector=vector, **datapoint), neighbor_count=count
    )


def test_create_deploy_upsert_find_remove_round_trip(emulator: EmulatorServer) -> None:
    index_client, endpoint_client, match = clients(emulator)
    metadata = struct_pb2.Value()
    json_format.ParseDict(
        {
            "config": {
                "dimensions": 3,
                "distanceMeasureType": "DOT_PRODUCT_DISTANCE",
                "featureNormType": "UNIT_L2_NORM",
                "algorithmConfig": {"bruteForceConfig": {}},
            }
        },
        metadata,
    )
    index = index_client.create_index(
        parent=PARENT,
        index=v1.Index(
            display_name="facts",
            metadata=metadata,
            index_update_method=v1.Index.IndexUpdateMethod.STREAM_UPDATE,
        ),
    ).result(timeout=10)
    endpoint = endpoint_client.create_index_endpoint(
        parent=PARENT,
        index_endpoint=v1.IndexEndpoint(display_name="ep", public_endpoint_enabled=True),
    ).result(timeout=10)
    deployed = endpoint_client.deploy_index(
        index_endpoint=endpoint.name, deployed_index=v1.DeployedIndex(id="dep", index=index.name)
    ).result(timeout=10)
    assert deployed.deployed_index.id == "dep"
    assert endpoint_client.get_index_endpoint(name=endpoint.name).deployed_indexes[0].index == (
        index.name
    )

    index_client.upsert_datapoints(
        request=v1.UpsertDatapointsRequest(
            index=index.name,
            datapoints=[
                v1.IndexDatapoint(
                    datapoint_id="red",
                    feature_vector=[2, 0, 0],
                    restricts=[R(namespace="c", allow_list=["red"])],
                ),
                v1.IndexDatapoint(
                    datapoint_id="blue",
                    feature_vector=[0.8, 0.6, 0],
                    restricts=[R(namespace="c", allow_list=["blue"])],
                ),
                v1.IndexDatapoint(datapoint_id="bare", feature_vector=[0, 0, 1]),
            ],
        )
    )
    assert index_client.get_index(name=index.name).index_stats.vectors_count == 3

    def find(*queries: Any, full: bool = False) -> list[list[tuple[str, float]]]:
        response = match.find_neighbors(
            request=v1.FindNeighborsRequest(
                index_endpoint=endpoint.name,
                deployed_index_id="dep",
                queries=list(queries),
                return_full_datapoint=full,
            )
        )
        return [
            [(n.datapoint.datapoint_id, n.distance) for n in found.neighbors]
            for found in response.nearest_neighbors
        ]

    # Unit-normalised dot products, nearest (largest) first.
    [everything] = find(query([1, 0, 0]))
    assert [i for i, _ in everything] == ["red", "blue", "bare"]
    assert everything[0][1] == pytest.approx(1.0) and everything[1][1] == pytest.approx(0.8)
    [[(nearest, distance)]] = find(query([1, 0, 0], count=1))
    assert nearest == "red" and distance == pytest.approx(1.0)
    # Allow lists: OR within a namespace; a datapoint without the namespace never matches.
    [blue] = find(query([1, 0, 0], restricts=[R(namespace="c", allow_list=["blue"])]))
    assert [i for i, _ in blue] == ["blue"]
    [both] = find(query([1, 0, 0], restricts=[R(namespace="c", allow_list=["blue", "red"])]))
    assert [i for i, _ in both] == ["red", "blue"]
    [not_red] = find(query([1, 0, 0], restricts=[R(namespace="c", deny_list=["red"])]))
    assert [i for i, _ in not_red] == ["blue", "bare"]

    full = match.find_neighbors(
        request=v1.FindNeighborsRequest(
            index_endpoint=endpoint.name,
            deployed_index_id="dep",
            queries=[query([1, 0, 0], count=1)],
            return_full_datapoint=True,
        )
    )
    point = full.nearest_neighbors[0].neighbors[0].datapoint
    assert list(point.feature_vector) == [2.0, 0.0, 0.0]
    assert point.restricts[0].allow_list == ["red"]

    read = match.read_index_datapoints(
        request=v1.ReadIndexDatapointsRequest(
            index_endpoint=endpoint.name, deployed_index_id="dep", ids=["blue", "missing"]
        )
    )
    assert [d.datapoint_id for d in read.datapoints] == ["blue"]

    index_client.remove_datapoints(
        request=v1.RemoveDatapointsRequest(index=index.name, datapoint_ids=["red"])
    )
    assert [i for i, _ in find(query([1, 0, 0]))[0]] == ["blue", "bare"]


def test_v1beta1_find_neighbors_with_numeric_restricts_and_crowding(
    emulator: EmulatorServer,
) -> None:
    names = new_deployment(emulator, dimensions=2)
    index_client, _, match = clients(emulator, v1beta1)
    N = v1beta1.IndexDatapoint.NumericRestriction
    index_client.upsert_datapoints(
        request=v1beta1.UpsertDatapointsRequest(
            index=names["index"],
            datapoints=[
                v1beta1.IndexDatapoint(
                    datapoint_id=f"p{i}",
                    feature_vector=[1.0, i / 10],
                    numeric_restricts=[N(namespace="price", value_int=i)],
                    crowding_tag=v1beta1.IndexDatapoint.CrowdingTag(
                        crowding_attribute="even" if i % 2 == 0 else "odd"
                    ),
                )
                for i in range(6)
            ],
        )
    )
    request = v1beta1.FindNeighborsRequest(
        index_endpoint=names["indexEndpoint"],
        deployed_index_id=names["deployedIndexId"],
        queries=[
            v1beta1.FindNeighborsRequest.Query(
                datapoint=v1beta1.IndexDatapoint(
                    feature_vector=[1.0, 0.0],
                    numeric_restricts=[
                        N(namespace="price", value_int=2, op=N.Operator.GREATER_EQUAL)
                    ],
                ),
                neighbor_count=10,
                per_crowding_attribute_neighbor_count=1,
            )
        ],
    )
    neighbors = match.find_neighbors(request=request).nearest_neighbors[0].neighbors
    # price >= 2, at most one per crowding attribute, nearest to (1, 0) first.
    assert [n.datapoint.datapoint_id for n in neighbors] == ["p2", "p3"]


def test_errors_are_google_error_envelopes(emulator: EmulatorServer) -> None:
    names = new_deployment(emulator, dimensions=2)
    index_client, endpoint_client, match = clients(emulator)
    with pytest.raises(api_exceptions.NotFound):
        endpoint_client.get_index_endpoint(name=f"{PARENT}/indexEndpoints/404")
    with pytest.raises(api_exceptions.NotFound):
        match.find_neighbors(
            request=v1.FindNeighborsRequest(
                index_endpoint=names["indexEndpoint"],
                deployed_index_id="nope",
                queries=[query([1, 0])],
            )
        )
    with pytest.raises(api_exceptions.BadRequest, match="dimensions"):
        index_client.upsert_datapoints(
            request=v1.UpsertDatapointsRequest(
                index=names["index"],
                datapoints=[v1.IndexDatapoint(datapoint_id="x", feature_vector=[1, 2, 3])],
            )
        )


def test_snake_case_keys_are_accepted(emulator: EmulatorServer) -> None:
    names = new_deployment(emulator, dimensions=2)
    base = f"{emulator.base_url}/v1"
    upsert = httpx.post(
        f"{base}/{names['index']}:upsertDatapoints",
        json={
            "datapoints": [
                {
                    "datapoint_id": "a",
                    "feature_vector": [1, 0],
                    "restricts": [{"namespace": "user", "allow_list": ["u1"]}],
                }
            ]
        },
    )
    assert upsert.status_code == 200 and upsert.json() == {}
    found = httpx.post(
        f"{base}/{names['indexEndpoint']}:findNeighbors",
        json={
            "deployed_index_id": names["deployedIndexId"],
            "queries": [
                {
                    "datapoint": {
                        "feature_vector": [1, 0],
                        "restricts": [{"namespace": "user", "allow_list": ["u1"]}],
                    },
                    "neighbor_count": 3,
                }
            ],
        },
    ).json()
    assert found["nearestNeighbors"][0]["neighbors"][0]["datapoint"] == {"datapointId": "a"}
