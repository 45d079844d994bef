"""`GeminiClassifier`: ADD / REPLACE / NOOP for a whole batch of new facts in one model call.

The model is Gemini through google-genai by default, or any `StructuredModel` (an ADK
`BaseLlm` through `AdkStructuredModel`); prompts, schema, checks and fallback are the same.

Each new fact goes to the model with its candidates numbered 1..k; record ids never reach the
model and are mapped back from the numbers here, so a reply cannot point at a memory that was
not offered. Facts with no candidate above the similarity floor are ADDed without a call, and
when none of the batch has one, no call is made at all. If the model stays unavailable or keeps
answering off schema, the batch goes to the offline `LocalClassifier`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from google.genai import Client
from pydantic import BaseModel

from adk_memory.google_api.gemini import GeminiSettings, payload_prompt, structured_model
from adk_memory.llm.base import ModelCallError, StructuredModel
from adk_memory.model import Decision, Fact, MemoryRecord, Verdict
from adk_memory.reconcile.base import (
    Candidate,
    ClassificationResult,
    ContradictionClassifier,
    ReconcileItem,
    sanitize_verdict,
)

if TYPE_CHECKING:
    from google.adk.models.base_llm import BaseLlm

logger = logging.getLogger(__name__)

CLASSIFY_TASK = "classify_facts"

SYSTEM_INSTRUCTION = """\
You keep an assistant's long-term memory consistent. You receive new facts, each with the
existing memories most similar to it as numbered candidates (numbering restarts for every new
fact). For every new fact decide:

- NOOP: the fact is already known. A candidate states the same thing, in other words or with
  more detail. List the candidate numbers that state it.
- REPLACE: the fact updates candidates about the same subject and the same attribute: a new
  value of something that holds one value at a time, or a negation of what a candidate says.
  "moved to Munich" replaces "lives in Berlin"; "switched from Java to Go" replaces "mainly
  programs in Java"; "no longer drinks coffee" replaces "likes coffee". List the candidate
  numbers it supersedes.
- ADD: anything else. Facts that can both be true are both kept: "likes tea" does not replace
  "likes coffee", "allergic to cats" does not replace "allergic to peanuts". Facts about
  different people never replace each other.

Only the same subject and attribute may supersede. `stated_at` is when something was said,
`valid_at` when it became true: a later statement supersedes an earlier one ("I moved to
Munich last week" replaces "I live in Berlin" said a few days before), unless the new
statement is explicitly about the past ("I lived in Rome as a child"). Reply with exactly
one verdict per new fact: its `fact` number, the `decision`, the `candidates` numbers
(empty for ADD) and a short `reason`.
"""

_INSTRUCTIONS = "Classify each new fact against its numbered candidates."


class FactVerdict(BaseModel):
    """The model's verdict on one new fact (the response schema)."""

    fact: int
    decision: Literal["ADD", "REPLACE", "NOOP"]
    candidates: list[int]
    reason: str


class ClassificationReply(BaseModel):
    """The whole reply of a classification call (the response schema)."""

    verdicts: list[FactVerdict]


def _fact_view(fact: Fact) -> dict[str, object]:
    return {
        "subject": fact.subject,
        "predicate": fact.predicate,
        "object": fact.object,
        "polarity": fact.polarity,
        "replaces": fact.replaces or "",
        "kind": fact.kind.value,
        "valid_at": fact.valid_at.isoformat(),
        "stated_at": fact.stated_at.isoformat(),
        "text": fact.text,
    }


def _candidate_view(number: int, candidate: Candidate) -> dict[str, object]:
    record: MemoryRecord = candidate.record
    return {
        "number": number,
        "subject": record.subject,
        "predicate": record.predicate,
        "object": record.object,
        "polarity": record.polarity,
        "kind": record.kind.value,
        "valid_at": record.valid_at.isoformat(),
        "stated_at": record.stated_at.isoformat(),
        "text": record.text,
        "similarity": round(candidate.similarity, 3),
    }


def classification_payload(items: Sequence[ReconcileItem]) -> dict[str, object]:
    """The JSON document a classification prompt carries (the emulator parses it back).

    Facts and candidates are numbered from 1; no record id appears.
    """
    return {
        "task": CLASSIFY_TASK,
        "facts": [
            {
                "number": n,
                "new_fact": _fact_view(item.fact),
                "candidates": [_candidate_view(k, c) for k, c in enumerate(item.candidates, 1)],
            }
            for n, item in enumerate(items, 1)
        ],
    }


def check_complete(reply: ClassificationReply, count: int) -> None:
    """Raises ValueError unless the reply has a verdict for each of facts 1..count."""
    missing = sorted(set(range(1, count + 1)) - {v.fact for v in reply.verdicts})
    if missing:
        raise ValueError(f"no verdict for facts {missing}; give exactly one per new fact")


def reply_to_verdicts(reply: ClassificationReply, items: Sequence[ReconcileItem]) -> list[Verdict]:
    """Maps numbered verdicts back to candidate ids, aligned with `items`, sanitised.

    Numbers outside a fact's candidate list are ignored; a REPLACE or NOOP left without a
    valid target becomes ADD (see `sanitize_verdict`).
    """
    first: dict[int, FactVerdict] = {}
    for verdict in reply.verdicts:
        first.setdefault(verdict.fact, verdict)
    verdicts: list[Verdict] = []
    for n, item in enumerate(items, 1):
        answer = first.get(n)
        if answer is None:
            verdicts.append(Verdict(decision=Decision.ADD, reason="no verdict"))
            continue
        targets = [
            item.candidates[k - 1].record.id
            for k in answer.candidates
            if 1 <= k <= len(item.candidates)
        ]
        raw = Verdict(decision=Decision(answer.decision), target_ids=targets, reason=answer.reason)
        verdicts.append(sanitize_verdict(raw, item))
    return verdicts


class GeminiClassifier:
    """Classifies new facts with one structured-output model call per batch.

    Args:
        client: A google-genai client; default: built from the environment (when no
            `model` is given).
        settings: Model, retry policy and `classifier_min_similarity`; default: from env.
        fallback: Used when the model fails; default: `LocalClassifier()` (created on first
            use).
        min_similarity: Overrides `settings.classifier_min_similarity`: candidates below it
            are not shown to the model unless they hold the fact's (subject, predicate) slot,
            and a fact left without candidates is ADDed.
        model: Another model instead of Gemini: a `StructuredModel`, or an ADK `BaseLlm`
            (run with the settings' retry policy and output cap).
    """

    def __init__(
        self,
        client: Client | None = None,
        *,
        settings: GeminiSettings | None = None,
        fallback: ContradictionClassifier | None = None,
        min_similarity: float | None = None,
        model: StructuredModel | BaseLlm | None = None,
    ) -> None:
        self._settings = settings if settings is not None else GeminiSettings.from_env()
        self._model = structured_model(client, self._settings, model)
        self._fallback = fallback
        self._floor = (
            self._settings.classifier_min_similarity if min_similarity is None else min_similarity
        )

    async def classify(self, items: Sequence[ReconcileItem]) -> ClassificationResult:
        """Classifies every item; one model call for all items that have close candidates.

        Returns:
            Verdicts aligned with `items`, naming only ids of each item's candidates.
        """
        verdicts = [Verdict(decision=Decision.ADD, reason="no similar memory") for _ in items]
        asked: list[int] = []
        shown: list[ReconcileItem] = []
        for index, item in enumerate(items):
            close = [c for c in item.candidates if self._worth_asking(item.fact, c)]
            if close:
                asked.append(index)
                shown.append(ReconcileItem(fact=item.fact, candidates=close))
        if not shown:
            return ClassificationResult(verdicts=verdicts)
        try:
            reply, usage = await self._model.generate_json(
                system_instruction=SYSTEM_INSTRUCTION,
                prompt=payload_prompt(_INSTRUCTIONS, classification_payload(shown)),
                schema=ClassificationReply,
                check=lambda r: check_complete(r, len(shown)),
            )
            answers = reply_to_verdicts(reply, shown)
        except ModelCallError as exc:
            logger.warning("model classification failed, using the local classifier: %s", exc)
            originals = [items[i] for i in asked]
            local = await self._fallback_classifier().classify(originals)
            answers = [
                sanitize_verdict(v, it) for v, it in zip(local.verdicts, originals, strict=True)
            ]
            usage = exc.usage + local.usage
        for index, verdict in zip(asked, answers, strict=True):
            verdicts[index] = verdict
        return ClassificationResult(verdicts=verdicts, usage=usage)

    def _worth_asking(self, fact: Fact, candidate: Candidate) -> bool:
        """Close enough in meaning, or the same slot: the engine adds same-slot records with
        similarity 0 because an update may embed far from the value it replaces."""
        record = candidate.record
        same_slot = bool(fact.predicate) and (record.subject, record.predicate) == (
            fact.subject,
            fact.predicate,
        )
        return same_slot or candidate.similarity >= self._floor

    def _fallback_classifier(self) -> ContradictionClassifier:
        if self._fallback is None:
            # Imported here: the local classifier is only needed when the model actually fails.
            from adk_memory.reconcile.local import LocalClassifier

            self._fallback = LocalClassifier()
        return self._fallback
