"""LoCoMo (Maharana et al., ACL 2024): loader and evidence-recall evaluation.

`locomo10.json` holds 10 long two-person conversations of up to 35 sessions, and questions
whose `evidence` lists the dialog ids (`D<session>:<turn>`) that answer them. Categories, per
the dataset's own evaluation code: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop,
5 adversarial (unanswerable; it has no meaningful evidence and is left out of recall).

The data is CC BY-NC 4.0 and is not shipped with this repository; it is looked up at
`$LOCOMO_PATH`, `bench/data/locomo10.json`, or `../shared/data/locomo10.json`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

CATEGORY_NAMES = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
#: The categories whose evidence recall is meaningful.
RECALL_CATEGORIES = (1, 2, 3, 4)

_REPO = Path(__file__).resolve().parent.parent
_DIA_ID = re.compile(r"D:?(\d+):0*(\d+)")
_SESSION_KEY = re.compile(r"session_(\d+)")


@dataclass(frozen=True)
class Turn:
    """One utterance. `timestamp` is the session date plus the turn's index in seconds, so
    turns of a session keep their order."""

    dia_id: str
    speaker: str
    text: str
    timestamp: datetime


@dataclass(frozen=True)
class Session:
    number: int
    date: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    question: str
    answer: str
    category: int
    #: Normalised dialog ids ("D11:26"); may be empty for a few open-domain questions.
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]

    @property
    def last_date(self) -> datetime:
        """When the last session with turns took place (the "now" of the questions)."""
        return self.sessions[-1].date

    def turn_count(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


def default_path() -> Path:
    """Where the dataset is looked for when no path is given."""
    candidates = [
        Path(os.environ["LOCOMO_PATH"]) if os.environ.get("LOCOMO_PATH") else None,
        _REPO / "bench" / "data" / "locomo10.json",
        _REPO.parent / "shared" / "data" / "locomo10.json",
    ]
    for path in candidates:
        if path is not None and path.exists():
            return path
    raise FileNotFoundError(
        "locomo10.json not found: set LOCOMO_PATH or put it in bench/data/ (it is the "
        "data/locomo10.json file of the snap-research/LoCoMo repository, CC BY-NC 4.0)"
    )


def parse_session_date(value: str) -> datetime:
    """Parses LoCoMo's "1:56 pm on 8 May, 2023" into an aware UTC datetime."""
    return datetime.strptime(value.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def normalize_evidence(raw: Iterable[str]) -> tuple[str, ...]:
    """Canonical dialog ids from the dataset's evidence strings.

    A few entries are malformed: several ids in one string ("D8:6; D9:17", "D9:1 D4:4"), a
    stray colon ("D:11:26"), zero padding ("D30:05"), or a bare "D". Those are split, fixed
    or dropped; order is kept and duplicates removed.
    """
    ids: list[str] = []
    for entry in raw:
        ids += [f"D{int(s)}:{int(t)}" for s, t in _DIA_ID.findall(str(entry))]
    return tuple(dict.fromkeys(ids))


def _turn_text(turn: dict[str, object], captions: bool) -> str:
    text = str(turn.get("text", "")).strip()
    caption = turn.get("blip_caption")
    if captions and isinstance(caption, str) and caption.strip():
        caption = caption.strip()
        # Shared images reach the model only through their caption ("a photo of a ...").
        shown = caption if caption.lower().startswith("a photo") else f"a photo of {caption}"
        text = f"{text} [shares {shown}]".strip()
    return text


def load_locomo(path: str | Path | None = None, *, captions: bool = True) -> list[Conversation]:
    """Reads `locomo10.json` into conversations of dated sessions, turns and questions.

    Args:
        path: The dataset file (default: `default_path()`).
        captions: Append the caption of a shared image to its turn, as
            "[shares a photo of ...]"; some answers are only in the picture.

    Returns:
        The conversations in file order; sessions with no turns are left out.
    """
    data = json.loads(Path(path or default_path()).read_text(encoding="utf-8"))
    conversations: list[Conversation] = []
    for item in data:
        conv = item["conversation"]
        numbers = sorted(
            int(m.group(1))
            for key in conv
            if (m := _SESSION_KEY.fullmatch(key)) and isinstance(conv[key], list) and conv[key]
        )
        sessions: list[Session] = []
        for n in numbers:
            date = parse_session_date(conv[f"session_{n}_date_time"])
            turns = tuple(
                Turn(
                    dia_id=normalize_evidence([t["dia_id"]])[0],
                    speaker=str(t["speaker"]),
                    text=_turn_text(t, captions),
                    timestamp=date + timedelta(seconds=i),
                )
                for i, t in enumerate(conv[f"session_{n}"])
            )
            sessions.append(Session(number=n, date=date, turns=turns))
        questions = tuple(
            Question(
                question=str(q["question"]),
                answer=str(q.get("answer", q.get("adversarial_answer", ""))),
                category=int(q["category"]),
                evidence=normalize_evidence(q.get("evidence", [])),
            )
            for q in item["qa"]
        )
        conversations.append(
            Conversation(
                sample_id=str(item.get("sample_id", len(conversations))),
                speakers=(str(conv["speaker_a"]), str(conv["speaker_b"])),
                sessions=tuple(sessions),
                questions=questions,
            )
        )
    return conversations


def evaluable(questions: Iterable[Question]) -> list[Question]:
    """The questions evidence recall is measured on: categories 1–4 with evidence."""
    return [q for q in questions if q.category in RECALL_CATEGORIES and q.evidence]


def recall_at_k(evidence: Iterable[str], ranked: Sequence[Iterable[str]], k: int) -> float:
    """Evidence recall@k: the share of evidence ids found among the dialog ids of the top-k
    results (`ranked[i]` is the dialog ids result i cites)."""
    wanted = set(evidence)
    if not wanted:
        raise ValueError("recall@k needs at least one evidence id")
    found: set[str] = set()
    for ids in ranked[:k]:
        found.update(ids)
    return len(wanted & found) / len(wanted)
