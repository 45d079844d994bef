"""`OrderingConfig`: when recalled memories count as answers to the same question, and what
is done with earlier answers."""

from __future__ import annotations

from pydantic import BaseModel, Field


class OrderingConfig(BaseModel):
    """When recalled memories count as answers to the same question."""

    #: Cosine between two memories' embeddings above which they say nearly the same thing.
    same_question_cosine: float = Field(default=0.62, ge=0.0, le=1.0)
    #: A nearly identical sentence or a slot joins a group only with at least this share of
    #: the group head's dense query cosine, so a newer but barely relevant memory never
    #: jumps ahead of the answer.
    min_relative_cosine: float = Field(default=0.6, ge=0.0, le=1.0)
    #: Earlier answers of a slot go after every other recalled memory instead of keeping
    #: their ranks. Off by default: when two memories are wrongly taken for answers to one
    #: question (both true: "I play tennis", "I play squash"), it would push a true fact
    #: out of the top ranks.
    earlier_last: bool = False
    #: Cosine a change statement needs with the state it displaces (both already recalled
    #: for the query, and that state its nearest recalled neighbour). Below it, recalled
    #: memories are unrelated however they are worded.
    change_cosine: float = Field(default=0.25, ge=0.0, le=1.0)
    #: Earlier answers displaced by a change statement go after every other recalled memory.
    displaced_last: bool = True
    #: Earlier rival answers to a question that asks for one value (`Evidence.ONE_ANSWER`)
    #: go after every other recalled memory. Off by default: on the held-out splits it
    #: pushed two true facts of 40 out of the top 5 (look-alikes read as rivals), while
    #: cutting stale values returned by about 7 points; marked either way.
    one_answer_last: bool = False
    #: Such earlier rival answers go after every other recalled memory when the latest
    #: answers the query at least as well as each of them (dense cosine): a look-alike
    #: read as a rival mostly matches the question less than the answer it sits beside.
    #: Measured on the six splits: stale values returned 236 -> 232 of 604, no fact lost.
    as_good_answer_last: bool = True
    #: Earlier rival answers to a one-value question whose later answer is said as new
    #: (`Evidence.NEW_ANSWER`) go after every other recalled memory: newness in the very
    #: clause that names the rival value is what tells an update from a look-alike.
    new_answer_last: bool = True
    #: Earlier answers the latest says were wrong (`Evidence.CORRECTION`) go after every
    #: other recalled memory.
    corrected_last: bool = True
    #: A recalled memory answers the query when its dense cosine with the query is at least
    #: this share of the best one's; the rest are only the least unrelated of what was
    #: recalled. A change displaces only an answer, and is read against its nearest answer.
    answer_share: float = Field(default=0.4, ge=0.0, le=1.0)
    #: Cosine above which two answers about the same person, one the other's nearest, may
    #: answer the same question ("My laptop is a ThinkPad X1", "Work issued me a MacBook
    #: Pro"): ordered newest first, unmarked.
    answer_cosine: float = Field(default=0.35, ge=0.0, le=1.0)
    #: Such a later answer that names no new value must match the query at least this share
    #: of the earlier one's dense cosine ("My dog hates the vacuum cleaner" matches "What
    #: breed is my dog?" far less than "My dog is a border collie").
    answer_relative: float = Field(default=0.7, ge=0.0, le=1.0)
    #: A later answer that names no new value and shares no word with the earlier one still
    #: answers the same question when it matches the query at least this share of the
    #: earlier one's and the two are at least `equal_answer_cosine` alike ("I take the train
    #: to work since my knee surgery" after "I cycle to work" for "How do I get to work?").
    equal_answer_relative: float = Field(default=0.85, ge=0.0, le=1.0)
    equal_answer_cosine: float = Field(default=0.45, ge=0.0, le=1.0)
    #: A later answer that names a new value needs less: this share of the earlier one's
    #: ("Work issued me a MacBook Pro" for "What laptop do I use?"), yet not so little that
    #: any name in a one-off remark counts ("Met Alex's old friend Jordan at the party").
    new_value_relative: float = Field(default=0.5, ge=0.0, le=1.0)
    #: A later statement that does not itself answer the query, names a new value and is
    #: nearest to an answer at least this close answers the same question.
    related_answer_cosine: float = Field(default=0.4, ge=0.0, le=1.0)
    #: A later answer that never names what the query asks about may still hold instead of
    #: an earlier one that does when it matches the query by this much more (dense cosine):
    #: the embedding reads "new boss Tom Achebe" as an answer to "Who's my manager?" where
    #: the words miss it, and "My mentor is Ibrahim" as a worse one than "My manager is
    #: Siobhan".
    asked_word_margin: float = Field(default=0.1, ge=0.0, le=1.0)
    #: Two of the best answers to the query answer it as rivals, however far apart their
    #: wording ("I live in Leicester, near the university", "Moved to Nottingham last month"),
    #: when the later matches the query at least this share of the earlier's, names a new
    #: value of its kind and is said as a change or a start.
    rival_relative: float = Field(default=0.7, ge=0.0, le=1.0)
    #: Below this cosine two memories are about different things, however they match.
    rival_cosine: float = Field(default=0.2, ge=0.0, le=1.0)
    #: The learned weighing of rival answers (`rival_model`): a later answer the model
    #: finds at least this likely to hold instead of an earlier one goes just before it,
    #: unmarked; None leaves ordering to the rules alone.
    rival_order: float | None = Field(default=0.5, ge=0.0, le=1.0)
    #: An earlier answer to a question that asks for one value, which the rival model finds
    #: a later answer at least this likely to hold instead of, goes after every other
    #: recalled memory, unmarked: at 0.9, stale values returned 135 -> 127 of 492 on the dev
    #: splits (133 -> 130 of 262 held out) when it came in (round 34), no fact lost; at 0.8 a
    #: look-alike sent a true fact away (dev3). None keeps it beside the later one.
    rival_last: float | None = Field(default=0.9, ge=0.0, le=1.0)
    #: The learned weighing of displaced answers (`rival_model.DISPLACED_FILE`): an earlier
    #: answer (not marked latest by the rules) that the model finds at least this likely to
    #: be displaced by a later answer already placed before it goes after every other
    #: recalled memory, unmarked (`rivals.displaced_pairs_of` says which pairs it reads).
    #: None keeps it where it is.
    displaced_order: float | None = Field(default=0.5, ge=0.0, le=1.0)
    #: The speaker's own present answer to a one-value question goes before a later
    #: look-alike recall ranked above it: a maybe said in so many words, or a relative's or
    #: friend's news (`own_answer.own_answer_first`).
    own_answer_first: bool = True
    #: Off turns the grouping off (pure score order).
    enabled: bool = True
