"""Deterministic synthetic memories, queries and chat turns for the latency benchmark.

Sentences are templated from word lists so that a large store has a realistic vocabulary
(names, places, jobs, foods, numbers): lexical and dense search then see the spread of terms
and topics they would see in real use, not thousands of copies of one sentence.
"""

from __future__ import annotations

import random
from collections.abc import Callable

NAMES = (
    "Alice Bruno Chen Dana Elif Farah Gabriel Hana Ivan Jonas Keiko Liam Maya Nikhil Olga Pedro "
    "Quinn Rosa Samir Tara Umar Vera Wen Ximena Yusuf Zoe Amara Bilal Clara Diego Emeka Freya "
    "Goran Ines Jamal Kira Lucia Mateo Nadia Oscar Priya Rafael Sofia Tomas Ulla Viktor Wanda "
    "Yara Anton Beatriz Caleb Daria Eitan Fatima Hugo Isla Jude Lena Marco Noor"
).split()
RELATIONS = (
    "sister brother mother father cousin aunt uncle grandmother grandfather niece nephew "
    "daughter son partner roommate neighbour colleague friend mentor"
).split()
CITIES = (
    "Lisbon Munich Osaka Toronto Nairobi Austin Krakow Seville Melbourne Bogota Hanoi Oslo "
    "Marseille Denver Porto Istanbul Cape-Town Vancouver Lyon Seoul Dublin Bologna Tbilisi Quito "
    "Helsinki Edinburgh Valencia Montreal Kyoto Boston Prague Budapest Athens Reykjavik Tallinn "
    "Zagreb Santiago Lima Manila Jakarta Auckland Perth Glasgow Hamburg Antwerp Ghent Bergen "
    "Gdansk Turin Naples Malaga Bilbao Leipzig Dresden Riga Vilnius Sofia Cluj Split"
).split()
JOBS = (
    "nurse teacher architect pharmacist electrician journalist paramedic accountant librarian "
    "carpenter chef data-analyst physiotherapist translator pilot photographer veterinarian "
    "plumber social-worker lawyer dentist firefighter mechanic florist baker surveyor "
    "economist geologist midwife biologist counselor designer engineer programmer curator "
    "sommelier barista tailor welder"
).split()
COMPANIES = (
    "Northwind Contoso Globex Initech Umbrella Hooli Vandelay Soylent Wonka Stark Acme Tyrell "
    "Cyberdyne Aperture Gringotts Monarch Pied-Piper Oceanic Dunder Nakatomi Wayne Oscorp "
    "Massive-Dynamic Virtucon Blue-Sun Weyland Rekall Gekko Sterling Prestige Lacuna Abstergo"
).split()
FOODS = (
    "ramen tacos sushi paella lasagna pho falafel dumplings risotto curry shakshuka pierogi "
    "ceviche goulash biryani bibimbap moussaka gnocchi tagine empanadas laksa arepas poke "
    "burritos croissants pancakes kimchi hummus souvlaki carbonara"
).split()
HOBBIES = (
    "pottery bouldering salsa chess birdwatching knitting sailing archery calligraphy "
    "woodworking photography gardening fencing kayaking baking origami beekeeping surfing "
    "painting juggling skateboarding running cycling swimming yoga tennis piano violin guitar "
    "drumming astronomy embroidery"
).split()
PETS = "dog cat parrot rabbit hamster tortoise ferret canary goldfish lizard".split()
ADJECTIVES = (
    "tiny shy playful old energetic grumpy fluffy clever noisy gentle curious lazy stubborn "
    "friendly anxious"
).split()
MONTHS = (
    "January February March April May June July August September October November December"
).split()
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
THINGS = (
    "dishwasher laptop bicycle car heater washing-machine phone camera printer fridge boiler "
    "scooter router oven kettle lawnmower"
).split()
PLACES = (
    "library community-centre animal-shelter food-bank hospital museum botanical-garden "
    "youth-club hospice soup-kitchen school climbing-gym"
).split()
ALLERGENS = "peanuts shellfish pollen cats gluten penicillin latex sesame eggs bee-stings".split()
TOOLS = (
    "Excel Notion Trello Obsidian Figma Python Rust Go Kotlin Swift Jira Asana Blender Lightroom"
).split()
LANDMARKS = (
    "lake",
    "old quarry",
    "national park",
    "coast",
    "glacier",
    "waterfall",
    "canyon",
    "river delta",
    "pine forest",
    "dunes",
)
WILDLIFE = "deer owls a fox otters eagles a moose seals wild horses a heron bats".split()
ILLNESSES = (
    "knee surgery",
    "pneumonia",
    "a broken wrist",
    "the flu",
    "a back injury",
    "a concussion",
)


def _w(value: str) -> str:
    return value.replace("-", " ")


def _fact(r: random.Random) -> str:
    subject = "User" if r.random() < 0.4 else r.choice(NAMES)
    name, city, rel = r.choice(NAMES), _w(r.choice(CITIES)), r.choice(RELATIONS)
    month, day = r.choice(MONTHS), r.choice(WEEKDAYS)
    templates: list[Callable[[], str]] = [
        lambda: (
            f"{subject} mentioned that their {rel} {name} moved to {city} to work as a "
            f"{_w(r.choice(JOBS))}."
        ),
        lambda: f"{subject} is planning a trip to {city} in {month} with their {rel}.",
        lambda: (
            f"{subject} started learning {r.choice(HOBBIES)} after a friend's wedding in {city}."
        ),
        lambda: f"{subject} prefers {r.choice(FOODS)} over {r.choice(FOODS)} when eating out.",
        lambda: (
            f"{subject} adopted a {r.choice(ADJECTIVES)} {r.choice(PETS)} named {name} "
            f"from a shelter in {city}."
        ),
        lambda: (
            f"{subject} is training for a {r.randint(5, 42)} km run and hopes to finish "
            f"under {r.randint(25, 240)} minutes."
        ),
        lambda: (
            f"{subject} said the {_w(r.choice(THINGS))} broke again and their {rel} offered "
            f"to fix it on {day}."
        ),
        lambda: (
            f"{subject} works at {_w(r.choice(COMPANIES))} as a {_w(r.choice(JOBS))} and "
            f"finds the {month} deadlines stressful."
        ),
        lambda: (
            f"{subject} volunteered at the {_w(r.choice(PLACES))} on {day} and met a "
            f"{_w(r.choice(JOBS))} named {name}."
        ),
        lambda: (
            f"{subject} is allergic to {_w(r.choice(ALLERGENS))} and always asks "
            f"restaurants about it."
        ),
        lambda: (
            f"{subject} bought a {r.choice(ADJECTIVES)} {_w(r.choice(THINGS))} for their "
            f"{rel}'s birthday in {month}."
        ),
        lambda: (
            f"{subject} finished a painting of the {r.choice(LANDMARKS)} "
            f"inspired by a trip to {city}."
        ),
        lambda: (
            f"{subject} wants to switch from {r.choice(TOOLS)} to {r.choice(TOOLS)} for "
            f"their {r.choice(HOBBIES)} project."
        ),
        lambda: (
            f"{subject} remembers visiting {city} in {r.randint(1995, 2025)} and eating the "
            f"best {r.choice(FOODS)} there."
        ),
        lambda: (
            f"{subject}'s {rel} {name} is recovering from {r.choice(ILLNESSES)} and gets a "
            f"visit every {day}."
        ),
        lambda: (
            f"{subject} joined a {r.choice(HOBBIES)} club that meets at the "
            f"{_w(r.choice(PLACES))} every {day} evening."
        ),
        lambda: (
            f"{subject} got a promotion to senior {_w(r.choice(JOBS))} at "
            f"{_w(r.choice(COMPANIES))} in {month} {r.randint(2015, 2026)}."
        ),
        lambda: (
            f"{subject} is nervous about the {r.choice(TOOLS)} certification exam on "
            f"{month} {r.randint(1, 28)}."
        ),
        lambda: (
            f"{subject} and {name} went camping near the {r.choice(LANDMARKS)} and saw "
            f"{r.choice(WILDLIFE)}."
        ),
        lambda: (
            f"{subject} spent {r.randint(2, 90)} euros on {r.choice(FOODS)} for a dinner "
            f"party with {r.randint(3, 12)} guests."
        ),
    ]
    return r.choice(templates)()


def facts(n: int, seed: int) -> list[str]:
    """`n` distinct fact sentences; the first m of `facts(n)` equal `facts(m)` (prefix-stable,
    so embeddings cached for a large n serve every smaller n)."""
    r = random.Random(seed)
    out: dict[str, None] = {}
    while len(out) < n:
        out.setdefault(_fact(r))
    return list(out)


def queries(n: int, seed: int) -> list[str]:
    """`n` questions an agent might recall memories for."""
    r = random.Random(seed + 1)
    templates: list[Callable[[], str]] = [
        lambda: f"Where did my {r.choice(RELATIONS)} move to for work?",
        lambda: f"When is the trip to {_w(r.choice(CITIES))}?",
        lambda: "What food do I like when eating out?",
        lambda: f"What is the name of the {r.choice(PETS)} I adopted?",
        lambda: "Which allergies should the restaurant know about?",
        lambda: f"Who did I meet while volunteering at the {_w(r.choice(PLACES))}?",
        lambda: f"What does {r.choice(NAMES)} do at {_w(r.choice(COMPANIES))}?",
        lambda: "How is my training for the half marathon going?",
        lambda: f"Which {r.choice(HOBBIES)} club did I join and when does it meet?",
        lambda: f"What gift did I buy for my {r.choice(RELATIONS)}'s birthday?",
        lambda: f"Can you remind me what broke with the {_w(r.choice(THINGS))}?",
        lambda: f"Is {r.choice(NAMES)} feeling better after the surgery?",
    ]
    return [r.choice(templates)() for _ in range(n)]


def chat_session(r: random.Random, turns: int) -> list[tuple[str, str]]:
    """A session of alternating (author, text) turns: a person, then the agent."""
    user_lines: list[Callable[[], str]] = [
        lambda: f"I just moved to {_w(r.choice(CITIES))} for a new job.",
        lambda: f"I work at {_w(r.choice(COMPANIES))} now. The team is great so far!",
        lambda: f"My favorite food is {r.choice(FOODS)}. I could eat it every day.",
        lambda: f"I'm allergic to {_w(r.choice(ALLERGENS))}, so please keep that in mind.",
        lambda: (
            f"We went camping near the {r.choice(LANDMARKS)} last weekend and saw "
            f"{r.choice(WILDLIFE)}!"
        ),
        lambda: f"Can you suggest a {r.choice(HOBBIES)} routine for a beginner like me?",
        lambda: (
            f"My {r.choice(RELATIONS)} {r.choice(NAMES)} is visiting in "
            f"{r.choice(MONTHS)}, any ideas for what to do?"
        ),
        lambda: f"I switched from {r.choice(TOOLS)} to {r.choice(TOOLS)} for my notes.",
        lambda: f"I have a {r.choice(ADJECTIVES)} {r.choice(PETS)} called {r.choice(NAMES)}.",
        lambda: (
            f"Honestly the {_w(r.choice(THINGS))} broke again and I am so tired of it. "
            f"I think I'll buy a new one on {r.choice(WEEKDAYS)}."
        ),
        lambda: f"I'm a {_w(r.choice(JOBS))} and the night shifts are getting to me.",
        lambda: (
            f"I've been training for a {r.randint(5, 42)} km run. Yesterday I did "
            f"{r.randint(3, 30)} km without stopping."
        ),
    ]
    agent_lines = (
        "That sounds exciting! How are you settling in?",
        "Thanks for telling me, I'll keep that in mind.",
        "Here is a simple plan: start with twenty minutes, three times a week.",
        "Oh no, that's frustrating. Have you checked the warranty?",
        "What a lovely weekend! What was the highlight?",
        "Good choice. Do you want tips on migrating your old notes?",
    )
    out: list[tuple[str, str]] = []
    for i in range(turns):
        if i % 2 == 0:
            out.append(("user", r.choice(user_lines)()))
        else:
            out.append(("model", r.choice(agent_lines)))
    return out
