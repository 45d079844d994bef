"""Current values first: recalled memories that answer the same question, newest statement first.

REPLACE is precision-first, so an update phrased in a way the classifier does not recognise
leaves the old value active beside the new one. Decay alone cannot order them (a five-year
half-life barely separates January from April). So after scoring, memories that answer the
same question are grouped and ordered by when they were stated, newest first, within the
ranks the group holds: no memory outside a group moves, except that the ranks of displaced
values (below) close up. What is said about them depends on the evidence (`Evidence`):

- two answers to the query about the same thing, the later one lasting: only ordered, never
  marked, since both may hold. Either nearly the same sentence ("I like coffee in the
  morning", "I like tea in the afternoon"), or related sentences about the same person, one
  the other's nearest answer, where the later one names a value the earlier does not ("My
  laptop is a ThinkPad X1", "Work issued me a MacBook Pro"; "I run about 20 km a week",
  "I upped it to around 40 km") and matches the query at least half as well, or shares a
  word with it that the query does not say and matches the query nearly as well, or matches
  the query as well and is closer to it still ("I've started eating fish again" after "I'm
  vegetarian"), or names a new value of the answer's kind and is close to it however little
  it matches the query ("Ended up relocating to Tucson" for "What city am I in?"); or two of
  the best answers that the query matches alike however far apart their wording, the later
  naming a new value of the earlier's kind and said as a change or a start ("Moved to
  Nottingham last month" after "I live in Leicester, near the university"). A remark on
  the same thing answers another question ("My dog is a border collie", "My dog hates the
  vacuum cleaner" for "What breed is my dog?"): it names no new value and matches the query
  less. An update rarely repeats the query's words, so "answers the query" is read on the
  dense cosine, not on the lexical half of the score;
- the same one-at-a-time slot of the same subject: marked latest and earlier;
- two rival answers to a query that asks for one value (`question.asks_for_one`), the later
  holding instead of the earlier: marked latest and earlier; and when the clause naming the
  later value presents it as new ("new boss Tom Achebe already booked me in", "I'm on
  Bitwarden now", "upped my pension contribution to 8%"), the earlier goes after every other
  recalled memory, however differently the query matches the two: chat rarely repeats the
  query's words, and newness said of the value itself is what tells an update from a
  look-alike;
- a change and a present state of the same person stated before it, the state an answer and
  one the other's nearest answer, the change not already settled by a REPLACE. A change
  either names what the state holds as gone ("Sold the Vespa" for "I ride a Vespa") or sets
  a present against a past in words ("We're in Munich now", "it's IPAs instead of stout")
  or as a move to a value ("The company moved us to a co-working space"). Recall has chosen
  both as answers to this query, so the change most likely displaced that state. Marked,
  and the earlier value goes after every other recalled memory: still shown, never deleted
  (that needs REPLACE's explicit evidence). One-off events ("I stopped at the bakery", "the
  mechanic fixed the brakes") are no changes.

A group holds one kind of evidence, so a near-identical sentence is never marked because a
change joined its group; and the strongest evidence groups first, so a weaker reading never
takes the state a change displaced.

Then a learned weighing of the same readings (`rival_model`, `OrderingConfig.rival_order`)
orders what the rules left apart: a later answer the model finds likely to hold instead of an
earlier one moves up to just before it, unmarked. The rules' look-alike readings stay vetoes
it cannot outweigh (`rivals.PairReadings.may_be_rivals`), and it only reorders: it never
marks, never sends a memory last, never supersedes. Last, a second learned weighing
(`OrderingConfig.displaced_order`) reads each pair the order now puts later first, for a query
that asks for one value, the look-alike readings now features rather than vetoes, each
allowed to push only its known way (`DISPLACED_SIGNS`), and sends an earlier answer it finds
likely displaced after every other recalled memory: unmarked, still returned. It never reads
a passing moment ("Dave's away so I'm training with Lucy this month"), and it is fitted with
a true fact it would send away counting five times a stale value it would leave.

The memory block shows every memory's date and these marks, so the agent's model can tell
which one holds now. Pure functions: no I/O.
"""

from adk_memory.retrieval.ordering.config import OrderingConfig
from adk_memory.retrieval.ordering.grouping import (
    Evidence,
    Group,
    Grouping,
    changes_in,
    group_same_question,
)
from adk_memory.retrieval.ordering.order import current_first
from adk_memory.retrieval.ordering.reading import Reading
from adk_memory.retrieval.ordering.rivals import (
    DISPLACED_FEATURES,
    DISPLACED_SIGNS,
    RIVAL_FEATURES,
    PairReadings,
    RivalPair,
    displaced_pairs_of,
    rival_pairs,
)

__all__ = [
    "DISPLACED_FEATURES",
    "DISPLACED_SIGNS",
    "RIVAL_FEATURES",
    "Evidence",
    "Group",
    "Grouping",
    "OrderingConfig",
    "PairReadings",
    "Reading",
    "RivalPair",
    "changes_in",
    "current_first",
    "displaced_pairs_of",
    "group_same_question",
    "rival_pairs",
]
