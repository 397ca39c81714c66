"""Summaries with planted claims: one sentence per example from 1-3 claims of the paper's claim
families, each *supported*, *Not Checkable*, *Misleading* or *Incorrect* with respect to the
description, which carries the evidence; and the examples (hotel, description, summary, claims,
split) built from them. The random stream of this module fixes every text of the corpus."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..categories import CATEGORIES
from .texts import (
    AMENITIES,
    ATMOS,
    CITIES,
    COUNTRY_WEIGHT,
    CUISINES,
    NAME_FIRST,
    NAME_KIND,
    ROOMS,
    STYLES,
    UNMENTIONED_PLACES,
    VIEWS,
    Hotel,
    _description,
)

NC, MIS, INC = CATEGORIES  # type index 0, 1, 2 as in the paper's factgenie config
STATUSES = ("supported", "not_checkable", "misleading", "incorrect")
TRUE_TYPE = {"not_checkable": NC, "misleading": MIS, "incorrect": INC}

# Each claim phrase carries its core (the minimal error span) in brackets.
PROXIMITY = [
    "[close to {L}]",
    "[near {L}]",
    "only [moments from {L}]",
    "[a stone's throw from {L}]",
    "just [minutes from {L}]",
    "[within easy reach of {L}]",
    "just [steps from {L}]",
    "[next to {L}]",
    "[around the corner from {L}]",
    "[conveniently near {L}]",
]
CENTRAL = [
    "[in the heart of {city}]",
    "[right in central {city}]",
    "[in the city centre]",
    "[at the centre of {city}]",
    "[in downtown {city}]",
    "[centrally located] in {city}",
    "[in the middle of {city}]",
    "[in prime central {city}]",
]
WALKING = [
    "a [short walk] from {L}",
    "[within walking distance] of {L}",
    "a [five-minute walk] from {L}",
    "an [easy stroll] from {L}",
    "a [ten-minute walk] from {L}",
    "[walkable] to {L}",
    "a [quick walk] from {L}",
]
ACCESS = [
    "[easy access] to the metro",
    "[excellent transport links]",
    "[convenient access] to {station} station",
    "[quick connections] to the airport",
    "[great public transport] links",
    "[easy access] to the motorway",
    "[direct trains] to the airport",
]
BUSINESS = [
    "[a business centre]",
    "[meeting rooms]",
    "[conference facilities]",
    "[a 24-hour business centre]",
    "[event spaces] for up to 200 guests",
    "[a coworking lounge]",
    "[fully equipped meeting rooms]",
]
FITNESS = [
    "[a fitness centre]",
    "[a well-equipped gym]",
    "[a 24-hour gym]",
    "[fitness facilities]",
    "[a yoga studio]",
    "[a fitness room] with cardio machines",
    "[an indoor pool] and gym",
]
DINING = [
    "[an on-site {cuisine} restaurant]",
    "[a complimentary breakfast]",
    "[a rooftop bar]",
    "[a buffet breakfast]",
    "[a {cuisine} restaurant]",
    "[free breakfast] every morning",
    "[a cocktail bar]",
    "[a cafe] serving {cuisine} food",
    "[in-room dining]",
]
SCENIC = [
    "[stunning {view} views]",
    "[panoramic {view} views]",
    "[breathtaking {view} views]",
    "[views of {L}]",
    "[sweeping {view} views]",
    "rooms with [{view} views]",
    "[beautiful {view} views]",
]

FAMILIES = {  # family: (phrase bank, role, aspect, status weights: supported, Not Checkable, Misleading, Incorrect)
    "proximity": (PROXIMITY, "pp", "location", (0.40, 0.22, 0.30, 0.08)),
    "central": (CENTRAL, "pp", "location", (0.42, 0.20, 0.30, 0.08)),
    "walking": (WALKING, "pp", "location", (0.45, 0.28, 0.19, 0.08)),
    "access": (ACCESS, "np", "location", (0.45, 0.30, 0.17, 0.08)),
    "amenities": ([f"[{a}]" for a in AMENITIES], "np", "amenities", (0.52, 0.22, 0.14, 0.12)),
    "facilities": ([f"[{r}]" for r in ROOMS], "np", "rooms", (0.50, 0.28, 0.12, 0.10)),
    "dining": (DINING, "np", "dining", (0.50, 0.22, 0.12, 0.16)),
    "views": (SCENIC, "np", "views", (0.45, 0.27, 0.20, 0.08)),
    "atmosphere": ([f"[{a}]" for a in ATMOS], "np", "atmosphere", (0.50, 0.35, 0.12, 0.03)),
    "business": (BUSINESS, "np", "business", (0.50, 0.22, 0.10, 0.18)),
    "fitness": (FITNESS, "np", "fitness", (0.50, 0.22, 0.10, 0.18)),
}
PP_FAMILIES = [f for f, v in FAMILIES.items() if v[1] == "pp"]
NP_FAMILIES = [f for f, v in FAMILIES.items() if v[1] == "np"]
FAMILY_WEIGHT = {
    "proximity": 2.6,
    "central": 1.3,
    "walking": 0.8,
    "access": 0.8,
    "amenities": 1.6,
    "facilities": 0.9,
    "dining": 0.7,
    "views": 0.6,
    "atmosphere": 1.0,
    "business": 0.5,
    "fitness": 0.4,
}
VAGUE = {"proximity": 1.6, "central": 1.4, "walking": 1.3, "access": 1.2, "atmosphere": 1.5, "views": 1.1}

TEMPLATES = {  # (pp claims, np claims): sentence templates
    (0, 1): ["{Name} offers {N1}.", "Guests at {Name} can enjoy {N1}.", "Enjoy {N1} during your stay at {Name}."],
    (0, 2): [
        "{Name} offers {N1} and {N2}.",
        "Guests can enjoy {N1} and {N2} at {Name}.",
        "This {style} hotel features {N1} as well as {N2}.",
    ],
    (0, 3): ["{Name} features {N1}, {N2} and {N3}.", "Enjoy {N1}, {N2} and {N3} at this {style} hotel."],
    (1, 0): ["{Name} is {P1}.", "This {style} hotel is {P1}.", "Stay {P1} at {Name}."],
    (1, 1): [
        "Located {P1}, {Name} offers {N1}.",
        "{Name} is {P1} and offers {N1}.",
        "Stay {P1} and enjoy {N1} at this {style} hotel.",
    ],
    (1, 2): ["Located {P1}, {Name} offers {N1} and {N2}.", "This {style} hotel {P1} boasts {N1} and {N2}."],
    (2, 0): ["{Name} is {P1} and {P2}.", "This {style} hotel is {P1}, {P2}."],
    (2, 1): ["Set {P1} and {P2}, {Name} offers {N1}."],
}


# --- evidence in the description for each claim status ---------------------------------------


def _evidence(family: str, status: str, h: Hotel, filled: str, rng: np.random.Generator) -> str | None:
    """A description sentence that supports, undercuts or contradicts the claim (None: Not Checkable)."""
    if status == "not_checkable":
        return None
    lm = h.landmarks[0]
    r = lambda lo, hi: round(float(rng.uniform(lo, hi)), 1)  # noqa: E731
    core = re.sub(r"^(a|an|the)\s+", "", filled)
    table = {
        "proximity": {
            "supported": f"{lm} is only {r(0.2, 0.9)} km from the property.",
            "misleading": f"{lm} can be reached in about {int(rng.integers(20, 45))} minutes by car.",
            "incorrect": f"Please note that {lm} is {r(12, 40)} km away, on the other side of {h.city}.",
        },
        "central": {
            "supported": f"The hotel stands in the historic centre of {h.city}.",
            "misleading": f"The property lies in a residential district {r(3, 8)} km from the centre of {h.city}.",
            "incorrect": f"The hotel is in the outskirts, {r(15, 30)} km outside {h.city}.",
        },
        "walking": {
            "supported": f"{lm} is a {int(rng.integers(3, 9))}-minute walk from the hotel.",
            "misleading": f"{lm} is {r(2.5, 5)} km away, with a bus stop nearby.",
            "incorrect": f"{lm} is a {int(rng.integers(35, 60))}-minute drive from the hotel.",
        },
        "access": {
            "supported": f"{h.station} station is a {int(rng.integers(2, 7))}-minute walk away.",
            "misleading": f"The nearest train station, {h.station}, is {r(3, 7)} km away.",
            "incorrect": "There is no public transport near the property, and guests need a car.",
        },
        "views": {
            "supported": f"Many rooms offer {h.view} views.",
            "misleading": f"Some upper-floor rooms have partial {h.view} views.",
            "incorrect": "All rooms face the inner courtyard.",
        },
        "atmosphere": {
            "supported": f"Guests describe the hotel as offering {core}.",
            "misleading": "This budget property offers simple rooms with basic furnishings.",
            "incorrect": "The hotel is next to a busy motorway and rooms can be noisy.",
        },
    }
    if family in table:
        return table[family][status]
    if status == "supported":
        return f"The hotel offers {core}."
    if status == "misleading":
        return f"{core[0].upper() + core[1:]} is available only seasonally, at an extra charge and on request."
    return f"Please note that the property does not offer {core}."


# --- summaries ------------------------------------------------------------------------------


@dataclass
class Claim:
    family: str
    status: str
    start: int  # character offsets of the whole claim phrase and of its core in the summary
    end: int
    core_start: int
    core_end: int
    clarity: float
    vague: float


def _fill(template: str, h: Hotel, rng: np.random.Generator, status: str) -> str:
    lm = h.landmarks[0]
    if status == "not_checkable" and "{L}" in template:
        lm = UNMENTIONED_PLACES[rng.integers(len(UNMENTIONED_PLACES))]
    return template.format(L=lm, city=h.city, station=h.station, cuisine=h.cuisine, view=h.view)


def _summary(h: Hotel, rng: np.random.Generator, mean_words: float) -> tuple[str, str, list[Claim], list[str]]:
    """One summary sentence with its planted claims and the evidence sentences they need."""
    fam_w = np.array([FAMILY_WEIGHT[f] for f in FAMILIES])
    fams = list(FAMILIES)
    for _ in range(200):
        n_claims = int(rng.choice([1, 2, 3], p=[0.18, 0.48, 0.34]))
        chosen: list[str] = []
        while len(chosen) < n_claims:
            f = fams[rng.choice(len(fams), p=fam_w / fam_w.sum())]
            if f not in chosen and not (FAMILIES[f][1] == "pp" and sum(FAMILIES[c][1] == "pp" for c in chosen) >= 2):
                chosen.append(f)
        n_pp = sum(FAMILIES[c][1] == "pp" for c in chosen)
        shape = (n_pp, n_claims - n_pp)
        if shape not in TEMPLATES:
            continue
        template = TEMPLATES[shape][rng.integers(len(TEMPLATES[shape]))]
        pp = [c for c in chosen if FAMILIES[c][1] == "pp"]
        np_ = [c for c in chosen if FAMILIES[c][1] == "np"]
        statuses = {c: STATUSES[rng.choice(4, p=FAMILIES[c][3])] for c in chosen}
        phrases = {c: _fill(FAMILIES[c][0][rng.integers(len(FAMILIES[c][0]))], h, rng, statuses[c]) for c in chosen}
        slots = {f"P{i + 1}": c for i, c in enumerate(pp)} | {f"N{i + 1}": c for i, c in enumerate(np_)}
        text, claims, evidence = "", [], []
        for piece in re.split(r"(\{\w+\})", template):
            m = re.fullmatch(r"\{(\w+)\}", piece)
            if m and m.group(1) in slots:
                fam = slots[m.group(1)]
                phrase = phrases[fam]
                cs = phrase.index("[")
                ce = phrase.index("]") - 1
                plain = phrase.replace("[", "").replace("]", "")
                start = len(text)
                text += plain
                clarity = float(rng.beta(2.0, 2.2)) if statuses[fam] != "incorrect" else float(rng.beta(2.6, 1.6))
                claims.append(
                    Claim(
                        fam,
                        statuses[fam],
                        start,
                        start + len(plain),
                        start + cs,
                        start + ce,
                        clarity,
                        VAGUE.get(fam, 0.8) * float(rng.lognormal(0, 0.4)),
                    )
                )
                ev = _evidence(fam, statuses[fam], h, plain[cs:ce], rng)
                if ev:
                    evidence.append(ev)
            elif m:
                text += {"Name": h.name, "style": h.style}[m.group(1)]
            else:
                text += piece
        n_words = len(text.split())
        if 7 <= n_words <= 24 and abs(n_words - mean_words) < 9:
            aspect = FAMILIES[chosen[0]][2]
            return text, aspect, claims, evidence
    raise RuntimeError("could not build a summary within 7-24 words")


@dataclass
class Example:
    split: str
    idx: int
    hotel: Hotel
    description: str
    summary: str
    aspect: str
    claims: list[Claim]
    sources: list[str]
    segments: int
    dropped: int
    stage2: bool = False


def build_examples(rng: np.random.Generator, paper: dict) -> list[Example]:
    ds = paper["dataset"]
    n = ds["examples"]
    weights = np.array([COUNTRY_WEIGHT.get(c[1], 0.55 / (len(CITIES) - 14)) for c in CITIES])
    lo, hi, mean = ds["description_words"]["min"], ds["description_words"]["max"], ds["description_words"]["mean"]
    # target lengths: a Beta on [lo, hi] with the paper's mean, a few very short outliers
    m = (mean - lo) / (hi - lo)
    targets = lo + (hi - lo) * rng.beta(2.2 * m / (1 - m), 2.2, size=n)
    targets[rng.choice(n, size=4, replace=False)] = rng.integers(lo, 40, size=4)
    built = []
    for i in range(n):
        city, country, landmarks, station = CITIES[rng.choice(len(CITIES), p=weights / weights.sum())]
        name = f"The {NAME_FIRST[rng.integers(len(NAME_FIRST))]} {NAME_KIND[rng.integers(len(NAME_KIND))]}"
        h = Hotel(
            name,
            city,
            country,
            list(rng.permutation(landmarks)),
            station,
            STYLES[rng.integers(len(STYLES))],
            CUISINES[rng.integers(len(CUISINES))],
            VIEWS[rng.integers(len(VIEWS))],
            round(float(rng.uniform(0.2, 9)), 1),
        )
        summary, aspect, claims, evidence = _summary(h, rng, ds["summary_words"]["mean"])
        n_sources = int(rng.choice([1, 2, 3, 4], p=[0.30, 0.35, 0.22, 0.13])) if targets[i] > 60 else 1
        desc, sources, segs, dropped = _description(h, evidence, n_sources, int(targets[i]), rng)
        words = desc.split()
        if len(words) > hi:  # keep the paper's range: cut at the last sentence end within it
            desc = " ".join(words[:hi])
            desc = desc[: desc.rfind(".") + 1]
        built.append(Example("", 0, h, desc, summary, aspect, claims, sources, segs, dropped))
    order = np.argsort([len(e.description.split()) for e in built], kind="stable")
    half = ds["splits"]["short"]
    for rank, i in enumerate(order):
        built[i].split = "short" if rank < half else "long"
    for split in ("short", "long"):
        members = [e for e in built if e.split == split]
        for idx, e in enumerate(members):
            e.idx = idx
    short = [e for e in built if e.split == "short"]
    held_out = set(rng.choice(len(short), size=len(short) - paper["campaigns"]["stage2"]["examples"], replace=False))
    for i, e in enumerate(short):
        e.stage2 = i not in held_out
    return sorted(built, key=lambda e: (e.split != "short", e.idx))
