"""The bundled stand-in corpus: a seeded simulation with the real corpus' shape.

The human annotations of HotelCheckSpan are gated, so the book runs on this simulation by
default. It is built in three steps, each from the paper's marginals
(``data/paper_figures.yaml``) and nothing else:

1. **Hotels and texts.** Each hotel gets facts (city, landmarks and distances, amenities,
   dining, views...), 1-4 source descriptions rendering those facts in source-specific
   wording plus marketing filler, and the concatenation goes through the paper's
   de-duplication (:mod:`hotelcheckspan.dedup`). The split is by description length.
2. **Summaries with planted claims.** One sentence of 7-24 words on one aspect, built from
   claims of the paper's claim families, each *supported*, *not checkable*, *misleading* or
   *incorrect* with respect to the description (the description carries the evidence).
3. **Simulated annotators.** Each has a sensitivity, a false-alarm rate, a type confusion
   (Misleading and Not Checkable are easily swapped), boundary habits and an impression
   offset; each claim has a clarity shared by all annotators, which is where agreement comes
   from. One scale per campaign (and split part) is solved so that the *expected* span count
   equals the paper's count (Tables 3 and 4); the realised counts, the type mix, agreement,
   clusters and test statistics are left to emerge.

``generate(out_dir)`` writes the factgenie layout; it is byte-identical for a given seed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from ..analyses import dataset_level
from ..book.paper import LLM_CAMPAIGNS as PAPER_LLM_CAMPAIGNS
from ..book.paper import figures
from ..categories import CATEGORIES, COLORS
from ..corpora.reader import NO_ERROR_LABELS
from .dedup import deduplicate

SEED = 1  # the first seed from 0 up whose corpus meets every bound of marginal_checks (data/README.md)
DATASET = "hotelcheckspan"
SETUP_ID = "gemini-1.5-flash"
NC, MIS, INC = CATEGORIES  # type index 0, 1, 2 as in the paper's factgenie config
STATUSES = ("supported", "not_checkable", "misleading", "incorrect")
TRUE_TYPE = {"not_checkable": NC, "misleading": MIS, "incorrect": INC}

# --- the world: places, names, facts ---------------------------------------------------------

CITIES = [  # (city, country, landmarks, station); the US, UK and Japan weighted as in Section 3.2
    ("New York", "US", ["Central Park", "Times Square", "the Empire State Building", "Bryant Park"], "Grand Central"),
    ("Chicago", "US", ["Millennium Park", "Navy Pier", "the Art Institute", "Union Station"], "Clark/Lake"),
    ("San Francisco", "US", ["Union Square", "Fisherman's Wharf", "the Ferry Building", "Chinatown"], "Powell Street"),
    ("Miami", "US", ["South Beach", "Bayside Marketplace", "the Wynwood Walls", "Brickell City Centre"], "Government Center"),
    ("Boston", "US", ["Boston Common", "Faneuil Hall", "Fenway Park", "the Seaport"], "Park Street"),
    ("Seattle", "US", ["Pike Place Market", "the Space Needle", "Pioneer Square", "Lake Union"], "Westlake"),
    ("Orlando", "US", ["Disney Springs", "the convention center", "Lake Eola", "International Drive"], "Church Street"),
    ("Nashville", "US", ["Broadway", "the Ryman Auditorium", "the Country Music Hall of Fame", "Centennial Park"], "Riverfront"),
    ("London", "UK", ["the British Museum", "Covent Garden", "Hyde Park", "the Tower of London"], "King's Cross"),
    ("Edinburgh", "UK", ["Edinburgh Castle", "the Royal Mile", "Princes Street Gardens", "Holyrood Palace"], "Waverley"),
    ("Manchester", "UK", ["Piccadilly Gardens", "the Northern Quarter", "Old Trafford", "Spinningfields"], "Piccadilly"),
    ("Tokyo", "Japan", ["Shinjuku Gyoen", "the Tokyo Tower", "Senso-ji Temple", "Shibuya Crossing"], "Shinjuku"),
    ("Kyoto", "Japan", ["Nishiki Market", "Kiyomizu-dera", "Gion", "the Imperial Palace"], "Kyoto"),
    ("Osaka", "Japan", ["Dotonbori", "Osaka Castle", "the Umeda Sky Building", "Namba Parks"], "Umeda"),
    ("Paris", "France", ["the Louvre", "the Eiffel Tower", "Notre-Dame", "the Marais"], "Gare du Nord"),
    ("Berlin", "Germany", ["the Brandenburg Gate", "Museum Island", "Alexanderplatz", "the East Side Gallery"], "Hauptbahnhof"),
    ("Rome", "Italy", ["the Colosseum", "the Trevi Fountain", "the Pantheon", "the Vatican Museums"], "Termini"),
    ("Barcelona", "Spain", ["La Rambla", "the Sagrada Familia", "Barceloneta Beach", "Park Guell"], "Sants"),
    ("Amsterdam", "Netherlands", ["Dam Square", "the Rijksmuseum", "Vondelpark", "the Anne Frank House"], "Centraal"),
    ("Vienna", "Austria", ["St. Stephen's Cathedral", "the Hofburg", "the Naschmarkt", "Schonbrunn Palace"], "Westbahnhof"),
    ("Prague", "Czechia", ["Old Town Square", "Charles Bridge", "Prague Castle", "Wenceslas Square"], "Hlavni nadrazi"),
    ("Lisbon", "Portugal", ["Rossio Square", "the Belem Tower", "Alfama", "Commerce Square"], "Cais do Sodre"),
    ("Dublin", "Ireland", ["Trinity College", "Temple Bar", "St. Stephen's Green", "the Guinness Storehouse"], "Connolly"),
    ("Copenhagen", "Denmark", ["Tivoli Gardens", "Nyhavn", "the Little Mermaid", "Stroget"], "Central Station"),
    ("Stockholm", "Sweden", ["Gamla Stan", "the Vasa Museum", "Djurgarden", "Stureplan"], "T-Centralen"),
    ("Oslo", "Norway", ["the Opera House", "Aker Brygge", "Karl Johans gate", "Vigeland Park"], "Oslo S"),
    ("Zurich", "Switzerland", ["Bahnhofstrasse", "Lake Zurich", "the Old Town", "Grossmunster"], "Zurich HB"),
    ("Athens", "Greece", ["the Acropolis", "Syntagma Square", "Plaka", "the Ancient Agora"], "Monastiraki"),
    ("Istanbul", "Turkey", ["the Blue Mosque", "the Grand Bazaar", "Taksim Square", "Hagia Sophia"], "Sirkeci"),
    ("Dubai", "UAE", ["the Mall of the Emirates", "Dubai Marina", "the Burj Khalifa", "Jumeirah Beach"], "Mall of the Emirates"),
    ("Marrakech", "Morocco", ["Jemaa el-Fnaa", "the Majorelle Garden", "the Koutoubia Mosque", "the medina"], "Marrakech"),
    ("Cape Town", "South Africa", ["the V&A Waterfront", "Table Mountain", "Camps Bay", "Long Street"], "Cape Town"),
    ("Nairobi", "Kenya", ["Nairobi National Park", "the Karen Blixen Museum", "Westlands", "the city market"], "Nairobi Central"),
    ("Cairo", "Egypt", ["the Egyptian Museum", "Tahrir Square", "Khan el-Khalili", "the Cairo Tower"], "Sadat"),
    ("Bangkok", "Thailand", ["the Grand Palace", "Khao San Road", "Lumpini Park", "Siam Paragon"], "Siam"),
    ("Singapore", "Singapore", ["Marina Bay Sands", "Orchard Road", "Gardens by the Bay", "Clarke Quay"], "City Hall"),
    ("Seoul", "South Korea", ["Gyeongbokgung Palace", "Myeongdong", "N Seoul Tower", "Insadong"], "Seoul Station"),
    ("Hong Kong", "China", ["Victoria Harbour", "Temple Street Night Market", "the Peak Tram", "Times Square"], "Central"),
    ("Sydney", "Australia", ["the Opera House", "Darling Harbour", "Bondi Beach", "the Rocks"], "Circular Quay"),
    ("Auckland", "New Zealand", ["the Sky Tower", "the Viaduct Harbour", "Queen Street", "Mount Eden"], "Britomart"),
    ("Toronto", "Canada", ["the CN Tower", "Union Station", "the Distillery District", "Kensington Market"], "Union"),
    ("Vancouver", "Canada", ["Stanley Park", "Gastown", "Granville Island", "Canada Place"], "Waterfront"),
    ("Mexico City", "Mexico", ["the Zocalo", "Chapultepec Park", "the Palacio de Bellas Artes", "Roma Norte"], "Zocalo"),
    ("Cancun", "Mexico", ["the Hotel Zone", "Playa Delfines", "La Isla Mall", "the ferry terminal"], "Cancun Centro"),
    ("Rio de Janeiro", "Brazil", ["Copacabana Beach", "Sugarloaf Mountain", "Ipanema", "the Selaron Steps"], "Cardeal Arcoverde"),
    ("Buenos Aires", "Argentina", ["Plaza de Mayo", "the Recoleta Cemetery", "San Telmo", "Puerto Madero"], "Retiro"),
    ("Lima", "Peru", ["the Plaza de Armas", "Miraflores", "Barranco", "the Larcomar mall"], "Central"),
    ("Santiago", "Chile", ["the Plaza de Armas", "Cerro San Cristobal", "Lastarria", "Costanera Center"], "Baquedano"),
    ("Bogota", "Colombia", ["La Candelaria", "the Gold Museum", "Monserrate", "Zona T"], "Museo del Oro"),
    ("Reykjavik", "Iceland", ["Hallgrimskirkja", "the Harpa concert hall", "Laugavegur", "the Old Harbour"], "Hlemmur"),
    ("Warsaw", "Poland", ["the Old Town", "the Palace of Culture", "Lazienki Park", "Nowy Swiat"], "Centralna"),
    ("Budapest", "Hungary", ["the Parliament", "the Chain Bridge", "the Szechenyi Baths", "Andrassy Avenue"], "Deak Ferenc ter"),
    ("Bali", "Indonesia", ["Seminyak Beach", "the Ubud Monkey Forest", "Kuta Beach", "Tanah Lot"], "Denpasar"),
    ("Hanoi", "Vietnam", ["Hoan Kiem Lake", "the Old Quarter", "the Temple of Literature", "the Opera House"], "Hanoi"),
    ("Mumbai", "India", ["the Gateway of India", "Marine Drive", "Colaba Causeway", "Juhu Beach"], "Churchgate"),
    ("Tel Aviv", "Israel", ["Gordon Beach", "the Carmel Market", "Rothschild Boulevard", "Jaffa Port"], "HaShalom"),
]
COUNTRY_WEIGHT = {"US": 0.30 / 8, "UK": 0.08 / 3, "Japan": 0.07 / 3}
UNMENTIONED_PLACES = ["the old town", "the waterfront", "the main shopping street", "the beach", "the harbour",
                      "the convention centre", "the nightlife district", "the botanical gardens", "the river promenade",
                      "the cathedral", "the central market", "the national museum", "the university campus"]

NAME_FIRST = ["Harbour", "Maple", "Grand", "Riverside", "Park", "Royal", "Garden", "Crown", "Lakeside", "Central",
              "Old Mill", "Sunset", "Cedar", "Oak", "Station", "Bay", "Hillside", "Willow", "Beacon", "Ivy", "Regent",
              "Kingsley", "Seaview", "Meridian", "Linden", "Aurora", "Copper", "Granite", "Silver", "Orchard"]
NAME_KIND = ["Hotel", "Inn", "Suites", "Lodge", "Residences", "Hotel & Spa", "Boutique Hotel", "Guesthouse", "Motel",
             "B&B", "Apartments"]
STYLES = ["boutique", "modern", "historic", "family-run", "contemporary", "classic", "stylish", "cosy"]
CUISINES = ["Italian", "French", "Japanese", "Mediterranean", "Thai", "Mexican", "Indian", "seafood", "steakhouse",
            "farm-to-table", "Spanish tapas", "Middle Eastern"]
AMENITIES = ["an outdoor pool", "a spa", "a sauna", "a hot tub", "a garden", "a terrace", "free WiFi", "free parking",
             "24-hour room service", "a bar", "a lounge", "a laundry service", "a concierge desk", "bike rental",
             "an airport shuttle", "a children's playground", "a library", "a games room"]
ROOMS = ["spacious rooms", "modern rooms", "recently renovated rooms", "family suites", "rooms with kitchenettes",
         "soundproofed rooms", "rooms with private balconies", "air-conditioned rooms", "rooms with rain showers",
         "apartments with full kitchens"]
VIEWS = ["sea", "city", "mountain", "river", "garden", "lake", "harbour", "skyline"]
ATMOS = ["a relaxing atmosphere", "a peaceful retreat", "a romantic setting", "a lively atmosphere",
         "a luxurious stay", "elegant decor", "a memorable stay", "a welcoming atmosphere", "a tranquil escape",
         "charming surroundings", "a vibrant setting", "a cosy ambience"]
SOURCES = ["booking site", "travel agency", "hotel website", "review portal"]

# Each claim phrase carries its core (the minimal error span) in brackets.
PROXIMITY = ["[close to {L}]", "[near {L}]", "only [moments from {L}]", "[a stone's throw from {L}]",
             "just [minutes from {L}]", "[within easy reach of {L}]", "just [steps from {L}]", "[next to {L}]",
             "[around the corner from {L}]", "[conveniently near {L}]"]
CENTRAL = ["[in the heart of {city}]", "[right in central {city}]", "[in the city centre]", "[at the centre of {city}]",
           "[in downtown {city}]", "[centrally located] in {city}", "[in the middle of {city}]", "[in prime central {city}]"]
WALKING = ["a [short walk] from {L}", "[within walking distance] of {L}", "a [five-minute walk] from {L}",
           "an [easy stroll] from {L}", "a [ten-minute walk] from {L}", "[walkable] to {L}", "a [quick walk] from {L}"]
ACCESS = ["[easy access] to the metro", "[excellent transport links]", "[convenient access] to {station} station",
          "[quick connections] to the airport", "[great public transport] links", "[easy access] to the motorway",
          "[direct trains] to the airport"]
BUSINESS = ["[a business centre]", "[meeting rooms]", "[conference facilities]", "[a 24-hour business centre]",
            "[event spaces] for up to 200 guests", "[a coworking lounge]", "[fully equipped meeting rooms]"]
FITNESS = ["[a fitness centre]", "[a well-equipped gym]", "[a 24-hour gym]", "[fitness facilities]",
           "[a yoga studio]", "[a fitness room] with cardio machines", "[an indoor pool] and gym"]
DINING = ["[an on-site {cuisine} restaurant]", "[a complimentary breakfast]", "[a rooftop bar]", "[a buffet breakfast]",
          "[a {cuisine} restaurant]", "[free breakfast] every morning", "[a cocktail bar]", "[a cafe] serving {cuisine} food",
          "[in-room dining]"]
SCENIC = ["[stunning {view} views]", "[panoramic {view} views]", "[breathtaking {view} views]", "[views of {L}]",
          "[sweeping {view} views]", "rooms with [{view} views]", "[beautiful {view} views]"]

FAMILIES = {  # family: (phrase bank, role, aspect, status weights: supported, not checkable, misleading, incorrect)
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
FAMILY_WEIGHT = {"proximity": 2.6, "central": 1.3, "walking": 0.8, "access": 0.8, "amenities": 1.6, "facilities": 0.9,
                 "dining": 0.7, "views": 0.6, "atmosphere": 1.0, "business": 0.5, "fitness": 0.4}
VAGUE = {"proximity": 1.6, "central": 1.4, "walking": 1.3, "access": 1.2, "atmosphere": 1.5, "views": 1.1}

TEMPLATES = {  # (pp claims, np claims): sentence templates
    (0, 1): ["{Name} offers {N1}.", "Guests at {Name} can enjoy {N1}.", "Enjoy {N1} during your stay at {Name}."],
    (0, 2): ["{Name} offers {N1} and {N2}.", "Guests can enjoy {N1} and {N2} at {Name}.",
             "This {style} hotel features {N1} as well as {N2}."],
    (0, 3): ["{Name} features {N1}, {N2} and {N3}.", "Enjoy {N1}, {N2} and {N3} at this {style} hotel."],
    (1, 0): ["{Name} is {P1}.", "This {style} hotel is {P1}.", "Stay {P1} at {Name}."],
    (1, 1): ["Located {P1}, {Name} offers {N1}.", "{Name} is {P1} and offers {N1}.",
             "Stay {P1} and enjoy {N1} at this {style} hotel."],
    (1, 2): ["Located {P1}, {Name} offers {N1} and {N2}.", "This {style} hotel {P1} boasts {N1} and {N2}."],
    (2, 0): ["{Name} is {P1} and {P2}.", "This {style} hotel is {P1}, {P2}."],
    (2, 1): ["Set {P1} and {P2}, {Name} offers {N1}."],
}


# --- evidence in the description for each claim status ---------------------------------------


@dataclass
class Hotel:
    name: str
    city: str
    country: str
    landmarks: list[str]
    station: str
    style: str
    cuisine: str
    view: str
    centre_km: float
    facts: list[str] = field(default_factory=list)


def _evidence(family: str, status: str, h: Hotel, filled: str, rng: np.random.Generator) -> str | None:
    """A description sentence that supports, undercuts or contradicts the claim (None: not checkable)."""
    if status == "not_checkable":
        return None
    lm = h.landmarks[0]
    r = lambda lo, hi: round(float(rng.uniform(lo, hi)), 1)  # noqa: E731
    core = re.sub(r"^(a|an|the)\s+", "", filled)
    table = {
        "proximity": {"supported": f"{lm} is only {r(0.2, 0.9)} km from the property.",
                      "misleading": f"{lm} can be reached in about {int(rng.integers(20, 45))} minutes by car.",
                      "incorrect": f"Please note that {lm} is {r(12, 40)} km away, on the other side of {h.city}."},
        "central": {"supported": f"The hotel stands in the historic centre of {h.city}.",
                    "misleading": f"The property lies in a residential district {r(3, 8)} km from the centre of {h.city}.",
                    "incorrect": f"The hotel is in the outskirts, {r(15, 30)} km outside {h.city}."},
        "walking": {"supported": f"{lm} is a {int(rng.integers(3, 9))}-minute walk from the hotel.",
                    "misleading": f"{lm} is {r(2.5, 5)} km away, with a bus stop nearby.",
                    "incorrect": f"{lm} is a {int(rng.integers(35, 60))}-minute drive from the hotel."},
        "access": {"supported": f"{h.station} station is a {int(rng.integers(2, 7))}-minute walk away.",
                   "misleading": f"The nearest train station, {h.station}, is {r(3, 7)} km away.",
                   "incorrect": "There is no public transport near the property, and guests need a car."},
        "views": {"supported": f"Many rooms offer {h.view} views.",
                  "misleading": f"Some upper-floor rooms have partial {h.view} views.",
                  "incorrect": "All rooms face the inner courtyard."},
        "atmosphere": {"supported": f"Guests describe the hotel as offering {core}.",
                       "misleading": "This budget property offers simple rooms with basic furnishings.",
                       "incorrect": "The hotel is next to a busy motorway and rooms can be noisy."},
    }
    if family in table:
        return table[family][status]
    if status == "supported":
        return f"The hotel offers {core}."
    if status == "misleading":
        return f"{core[0].upper() + core[1:]} is available only seasonally, at an extra charge and on request."
    return f"Please note that the property does not offer {core}."


# --- text of the descriptions ----------------------------------------------------------------

FILL_SUBJ = ["Each room", "Every guest room", "All units", "The rooms", "Selected rooms", "The suites", "The studios",
             "Guests", "Our staff", "The front desk", "The property", "The hotel", "The building", "The lobby"]
FILL_VERB = ["comes with", "features", "provides", "includes", "is equipped with", "offers", "has", "boasts"]
FILL_OBJ = ["a flat-screen TV", "a minibar", "a work desk", "a safety deposit box", "an electric kettle", "free toiletries",
            "a hairdryer", "blackout curtains", "a seating area", "a private bathroom", "an ironing board",
            "a coffee machine", "bathrobes and slippers", "a wardrobe", "satellite channels", "a refrigerator",
            "tea and coffee facilities", "a rain shower", "heating", "a sofa bed", "luggage storage",
            "multilingual staff", "a tour desk", "express check-in and check-out", "a currency exchange"]
FILL_TAIL = ["for added comfort", "for every stay", "at no extra cost", "in most categories", "on request",
             "throughout the property", "for guests' convenience", "as standard", "in every category", "", "", ""]
POLICIES = ["Check-in is from {h}:00 and check-out is until {h2}:00.", "Pets are {pets}.",
            "Children of all ages are welcome.", "Smoking is not allowed anywhere on the property.",
            "A security deposit is required on arrival.", "The hotel accepts all major credit cards.",
            "Quiet hours are observed from {h3}:00.", "Extra beds are available on request."]


def _filler(rng: np.random.Generator) -> str:
    if rng.random() < 0.12:
        s = POLICIES[rng.integers(len(POLICIES))]
        return s.format(h=int(rng.integers(12, 16)), h2=int(rng.integers(10, 13)), h3=int(rng.integers(21, 24)),
                        pets=["allowed on request", "not allowed", "allowed free of charge"][rng.integers(3)])
    k = int(rng.integers(1, 3))
    objs = list(rng.choice(FILL_OBJ, size=k + 1, replace=False))
    obj = objs[0] if k == 0 else ", ".join(objs[:-1]) + " and " + objs[-1]
    tail = FILL_TAIL[rng.integers(len(FILL_TAIL))]
    return f"{FILL_SUBJ[rng.integers(len(FILL_SUBJ))]} {FILL_VERB[rng.integers(len(FILL_VERB))]} {obj}" + (f" {tail}." if tail else ".")


def _hotel_facts(h: Hotel, rng: np.random.Generator) -> list[list[str]]:
    """Fact sentences in two wordings; sources pick one, so sources repeat each other."""
    lm = h.landmarks
    am = list(rng.choice(AMENITIES, size=3, replace=False))
    return [
        [f"{h.name} is a {h.style} property in {h.city}, {h.country}.",
         f"Set in {h.city}, {h.name} is a {h.style} place to stay."],
        [f"It is {h.centre_km} km from the centre of {h.city}.", f"The centre of {h.city} is {h.centre_km} km away."],
        [f"{lm[1]} is {round(float(rng.uniform(0.5, 6)), 1)} km from the property.",
         f"Guests can reach {lm[1]} within a short ride."],
        [f"The property features {am[0]}, {am[1]} and {am[2]}.", f"Amenities include {am[0]}, {am[1]} and {am[2]}."],
        [f"The on-site restaurant serves {h.cuisine} cuisine.", f"A {h.cuisine} restaurant is located on site."],
        [f"The nearest airport is {int(rng.integers(8, 45))} km from {h.name}.",
         f"{h.name} is {int(rng.integers(20, 60))} minutes by car from the airport."],
    ]


def _description(h: Hotel, evidence: list[str], n_sources: int, target_words: int,
                 rng: np.random.Generator) -> tuple[str, list[str], int, int]:
    facts = _hotel_facts(h, rng)
    sources = []
    per_source = max(1, int(1.1 * target_words) // n_sources)  # de-duplication removes about a tenth
    shared_fillers = [_filler(rng) for _ in range(int(rng.integers(0, 6)))]
    for j in range(n_sources):
        wording = int(rng.integers(2))
        sents = [f[wording] for f in facts[: max(1, min(len(facts), per_source // 12))]]
        if j == 0:
            sents[1:1] = evidence
        sents += [s for s in shared_fillers if rng.random() < 0.7]
        while sum(len(s.split()) for s in sents) < per_source:
            sents.append(_filler(rng))
        sources.append(sents)
    segments = [s for src in sources for s in src]
    kept, dropped = deduplicate(segments)
    return " ".join(kept), SOURCES[:n_sources], len(segments), len(dropped)


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
                claims.append(Claim(fam, statuses[fam], start, start + len(plain), start + cs, start + ce,
                                    clarity, VAGUE.get(fam, 0.8) * float(rng.lognormal(0, 0.4))))
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


# --- annotators -----------------------------------------------------------------------------

CONFUSION = {  # true status -> probabilities of (Not Checkable, Misleading, Incorrect) when marked
    "supported": (0.52, 0.40, 0.08),
    "not_checkable": (0.70, 0.26, 0.04),
    "misleading": (0.34, 0.62, 0.04),
    "incorrect": (0.18, 0.24, 0.58),
}
HUMAN_REASONS = ["", "", "", "not in the description", "exaggerated", "the description says otherwise",
                 "cannot verify this", "distance is wrong", "overstated"]


@dataclass
class Annotator:
    id: str
    group: int
    sens: float
    false_alarm: float
    swap: float       # extra probability of swapping Misleading and Not Checkable
    loose: float      # probability of extending a span beyond its core
    offset: float     # impression offset
    type_prior: tuple | None = None  # LLMs: their own type preference (Table 3 shares)
    prior_weight: float = 0.0


def _mark_weight(a: Annotator, c: Claim, fa_weight: float) -> float:
    if c.status == "supported":
        return a.false_alarm * fa_weight * c.vague
    return a.sens * c.clarity * (1.25 if c.status == "incorrect" else 1.0)


def _solve_scale(weights: np.ndarray, target: float) -> float:
    """The scale s with sum(min(1, s * w)) == target (expected span count)."""
    if target <= 0 or weights.sum() == 0:
        return 0.0
    lo, hi = 0.0, 1.0
    while np.minimum(1, hi * weights).sum() < target and hi < 1e6:
        hi *= 2
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if np.minimum(1, mid * weights).sum() < target else (lo, mid)
    return (lo + hi) / 2


def _span_for(c: Claim, summary: str, a: Annotator, extra_words: float, rng: np.random.Generator) -> tuple[int, int]:
    """Character span an annotator selects for a claim: the core, widened or trimmed by habit."""
    s, e = c.core_start, c.core_end
    u = rng.random()
    if u < a.loose:  # widen to the whole claim phrase, sometimes further into the sentence
        s, e = c.start, c.end
        if rng.random() < extra_words:
            s = 0
            e = len(summary.rstrip("."))
    elif u < a.loose + 0.12:  # trim to the last word(s) of the core
        words = list(re.finditer(r"\S+", summary[s:e]))
        if len(words) > 1:
            k = int(rng.integers(1, len(words)))
            s = s + words[k].start()
    return s, e


def _pick_type(a: Annotator, c: Claim, rng: np.random.Generator) -> int:
    probs = np.array(CONFUSION[c.status], dtype=float)
    if a.type_prior is not None:
        probs = (1 - a.prior_weight) * probs + a.prior_weight * np.array(a.type_prior)
    t = int(rng.choice(3, p=probs / probs.sum()))
    if t in (0, 1) and rng.random() < a.swap:
        t = 1 - t
    return t


def _annotate(a: Annotator, claims: list[Claim], summary: str, scale: float, fa_weight: float,
              extra_words: float, rng: np.random.Generator) -> list[dict]:
    spans = []
    for c in claims:
        p = min(1.0, scale * _mark_weight(a, c, fa_weight))
        if rng.random() >= p:
            continue
        s, e = _span_for(c, summary, a, extra_words, rng)
        if any(s < x["end"] and x["start"] < e for x in spans):  # overlaps are not allowed in the UI
            s, e = c.core_start, c.core_end
            if any(s < x["end"] and x["start"] < e for x in spans):
                continue
        spans.append({"type": _pick_type(a, c, rng), "start": s, "end": e, "claim": c})
    return sorted(spans, key=lambda x: x["start"])


# --- the generator --------------------------------------------------------------------------


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


def _build_examples(rng: np.random.Generator, paper: dict) -> list[Example]:
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
        h = Hotel(name, city, country, list(rng.permutation(landmarks)), station,
                  STYLES[rng.integers(len(STYLES))], CUISINES[rng.integers(len(CUISINES))],
                  VIEWS[rng.integers(len(VIEWS))], round(float(rng.uniform(0.2, 9)), 1))
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


def _human_pool(prefix: str, n: int, rng: np.random.Generator, stage: int) -> list[Annotator]:
    pool = []
    for i in range(n):
        group = i % 2
        pool.append(Annotator(
            id=f"{prefix}-a{i + 1:03d}", group=group,
            sens=float(rng.lognormal(0, 0.35)),
            false_alarm=float(rng.lognormal(0, 0.5)) * (1.8 if group == 1 else 1.0) * (0.8 if stage == 2 else 1.0),
            swap=float(rng.uniform(0.05, 0.3)), loose=float(rng.uniform(0.15, 0.55)),
            offset=float(rng.normal(0, 0.6)),
        ))
    return pool


def _assign_batches(examples: list[Example], pool: list[Annotator], group: int, batch_size: int,
                    rng: np.random.Generator) -> list[tuple[Example, Annotator, int]]:
    members = [a for a in pool if a.group == group]
    order = [examples[i] for i in rng.permutation(len(examples))]
    batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
    who = list(rng.permutation(len(members))) + list(rng.integers(0, len(members), size=max(0, len(batches) - len(members))))
    return [(e, members[who[b]], b + 1) for b, batch in enumerate(batches) for e in batch]


PAPER_NAME = {folder: name for name, folder in PAPER_LLM_CAMPAIGNS.items()}  # folder -> Table 3 row
LLM_CAMPAIGNS = {  # folder: (model id, prompt, span widening, weight of own type prior)
    "gemma-3": ("gemma-3-27b-it", "default", 0.75, 0.55),
    "gpt-4o": ("gpt-4o-2024-08-06", "default", 0.45, 0.45),
    "gpt-4o-ls": ("gpt-4o-2024-08-06", "less strict", 0.45, 0.45),
    "o3-mini": ("o3-mini-2025-01-31", "default", 0.2, 0.3),
    "o3-mini-ls": ("o3-mini-2025-01-31", "less strict", 0.5, 0.3),
}
LLM_REASON = {  # by type index
    0: "The description does not mention {x}, so the claim cannot be verified.",
    1: "The description only partly supports {x}; the summary overstates it.",
    2: "The description contradicts {x}.",
}
HUMAN_TABLE4 = {("stage1", 0): "St. 1A", ("stage1", 1): "St. 1B", ("stage2", 0): "St. 2A", ("stage2", 1): "St. 2B"}


def _targets(paper: dict) -> dict:
    """Expected span counts per (campaign, group, part), part = on the 245 stage-2 examples or not."""
    t4, t3 = paper["table4_dataset_level_stage2_subset"], paper["table3_llm_campaigns"]
    s1_total = paper["dataset"]["human_spans"] - t4["St. 2A"]["total"] - t4["St. 2B"]["total"]
    s1_sub = t4["St. 1A"]["total"] + t4["St. 1B"]["total"]
    out = {}
    for (camp, g), name in HUMAN_TABLE4.items():
        out[(camp, g, True)] = t4[name]["total"]
        if camp == "stage1":
            out[(camp, g, False)] = (s1_total - s1_sub) * t4[name]["total"] / s1_sub
    for folder, name in PAPER_NAME.items():
        out[(folder, 0, True)] = t4[name]["total"]
        out[(folder, 0, False)] = t3[name]["total"] - t4[name]["total"]
    return out


def _llm_annotator(folder: str, paper: dict, rng: np.random.Generator) -> Annotator:
    _, _, loose, prior_w = LLM_CAMPAIGNS[folder]
    row = paper["table3_llm_campaigns"][PAPER_NAME[folder]]
    prior = np.array([row[NC], row[MIS], row[INC]], dtype=float) + 0.5
    return Annotator(id=folder, group=0, sens=1.0, false_alarm=1.0, swap=0.05, loose=loose, offset=0.0,
                     type_prior=tuple(prior / prior.sum()), prior_weight=prior_w)


def _impression(spans: list[dict], a: Annotator, quality: float, paper: dict, rng: np.random.Generator) -> int:
    imp = paper["impressions"]
    drops = {CATEGORIES.index(t): imp["by_type"][t]["drop"] for t in CATEGORIES}
    value = imp["mean_no_error"] + a.offset + quality + rng.normal(0, 0.9)
    for k, s in enumerate(sorted(spans, key=lambda x: -drops[x["type"]])):
        value -= drops[s["type"]] * (0.75 if k == 0 else 0.45)
    return int(min(7, max(1, round(value))))


def _record(e: Example, spans: list[dict], **extra) -> dict:
    rec = {"dataset": DATASET, "split": e.split, "setup_id": SETUP_ID, "example_idx": e.idx}
    rec |= extra.pop("head", {})
    rec["annotations"] = [
        {"type": s["type"], "start": s["start"], "text": e.summary[s["start"]:s["end"]], "reason": s["reason"]}
        for s in spans
    ]
    return rec | extra


def generate(out_dir: Path | str, seed: int = SEED) -> Path:
    """Write the stand-in corpus in factgenie layout to ``out_dir``; deterministic for a seed."""
    out = Path(out_dir)
    paper = figures()
    rng = np.random.default_rng(seed)
    examples = _build_examples(rng, paper)
    targets = _targets(paper)
    ann_rng = np.random.default_rng([seed, 1])

    jobs: dict[tuple[str, int], list[tuple[Example, Annotator, int]]] = {}
    pools = {"stage1": _human_pool("s1", paper["campaigns"]["stage1"]["annotators"], ann_rng, 1),
             "stage2": _human_pool("s2", paper["campaigns"]["stage2"]["qualified"], ann_rng, 2)}
    for camp, pool in pools.items():
        subset = examples if camp == "stage1" else [e for e in examples if e.stage2]
        size = paper["campaigns"][camp]["batch_size"]
        size -= paper["campaigns"][camp].get("attention_checks_per_batch", 0)
        for g in (0, 1):
            jobs[(camp, g)] = _assign_batches(subset, pool, g, size, ann_rng)
    for folder in LLM_CAMPAIGNS:
        a = _llm_annotator(folder, paper, ann_rng)
        jobs[(folder, 0)] = [(e, a, 0) for e in examples]

    fa_weight = 0.22
    quality = {id(e): float(ann_rng.normal(0, 0.35)) for e in examples}
    campaign_records: dict[str, list[dict]] = {}
    for (camp, g), todo in jobs.items():
        for part in (True, False):
            chosen = [(e, a, b) for e, a, b in todo if e.stage2 == part]
            w = np.array([_mark_weight(a, c, fa_weight) for e, a, _ in chosen for c in e.claims])
            scale = _solve_scale(w, targets.get((camp, g, part), 0.0))
            for e, a, batch in chosen:
                widen = 0.2 if camp in LLM_CAMPAIGNS else 0.03
                spans = _annotate(a, e.claims, e.summary, scale, fa_weight, widen, ann_rng)
                if camp in LLM_CAMPAIGNS:
                    for s in spans:
                        s["reason"] = LLM_REASON[s["type"]].format(x=f"'{e.summary[s['start']:s['end']]}'")
                    rec = _record(e, spans, head={"annotator_group": 0},
                                  metadata={"annotator_id": camp, "campaign_id": camp})
                else:
                    for s in spans:
                        s["reason"] = HUMAN_REASONS[ann_rng.integers(len(HUMAN_REASONS))]
                    imp = _impression(spans, a, quality[id(e)], paper, ann_rng)
                    rec = _record(
                        e, spans, head={"annotator_id": a.id, "annotator_group": g},
                        flags=[{"label": NO_ERROR_LABELS[g], "value": not spans}],
                        options=[{"type": "slider", "label": "Overall impression", "index": str(imp - 1),
                                  "value": str(imp), "optionList": [str(i) for i in range(1, 8)]}],
                        metadata={"stage": int(camp[-1]), "batch": batch},
                    )
                campaign_records.setdefault(camp, []).append(rec)

    _write(out, examples, campaign_records, paper)
    return out


def _categories() -> list[dict]:
    descriptions = {
        NC: "The statement cannot be checked against the description.",
        MIS: "The statement distorts what the description says (exaggeration, ambiguity).",
        INC: "The statement contradicts the description.",
    }
    return [{"name": c, "color": COLORS[c], "description": descriptions[c]} for c in CATEGORIES]


def _dump_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def _dump_yaml(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _write(out: Path, examples: list[Example], campaign_records: dict[str, list[dict]], paper: dict) -> None:
    inputs = [{
        "dataset": DATASET, "split": e.split, "setup_id": SETUP_ID, "example_idx": e.idx,
        "description": e.description, "summary": e.summary, "aspect": e.aspect, "sources": e.sources,
        "segments": e.segments, "segments_dropped": e.dropped,
    } for e in examples]
    _dump_jsonl(out / "inputs.jsonl", inputs)
    cats = _categories()
    for camp in ("stage1", "stage2"):
        folder = out / "annotations" / "human" / camp
        _dump_yaml(folder / "config.yaml", {
            "annotation_span_categories": cats, "annotation_overlap_allowed": False,
            "annotation_granularity": "words", "stage": int(camp[-1]),
            "flags": list(NO_ERROR_LABELS),
            "options": [{"type": "slider", "label": "Overall impression", "values": [str(i) for i in range(1, 8)]}],
            "simulated": True,
        })
        rows = sorted(campaign_records[camp], key=lambda r: (r["annotator_group"], r["metadata"]["batch"],
                                                             r["split"], r["example_idx"]))
        _dump_jsonl(folder / "annotations.jsonl", rows)
    for camp, (model, prompt, *_rest) in LLM_CAMPAIGNS.items():
        folder = out / "annotations" / "model" / camp
        _dump_yaml(folder / "config.yaml", {
            "annotation_span_categories": cats, "annotation_overlap_allowed": False,
            "model": model, "prompt_variant": prompt,
            "prompt_template": (
                "Given the hotel description and its summary, mark every span of the summary that is "
                + ("clearly " if prompt == "less strict" else "")
                + "Incorrect, Misleading or Not Checkable with respect to the description. "
                "Answer in JSON with the span text, its type and a reason.\n\n"
                "Description: {description}\nSummary: {summary}"
            ),
            "model_args": {"temperature": 0, "seed": 42},
            "paper_name": PAPER_NAME[camp], "simulated": True,
        })
        rows = sorted(campaign_records[camp], key=lambda r: (r["split"], r["example_idx"]))
        _dump_jsonl(folder / "annotations.jsonl", rows)


# --- how the result compares with the paper's marginals -------------------------------------


def marginal_checks(corpus, paper: dict | None = None):
    """Each marginal the stand-in is set from: a frame with the paper's value, ours, the allowed
    band and a verdict (columns ``marginal, paper, corpus, low, high, ok``)."""
    paper = paper or figures()
    rows = []

    def add(what, paper_value, value, lo, hi):
        rows.append({"marginal": what, "paper": paper_value, "corpus": value, "low": lo, "high": hi,
                     "ok": bool(lo <= value <= hi)})

    ov = dataset_level.overview(corpus)
    add("human spans", paper["dataset"]["human_spans"], ov["spans"], 0.9 * paper["dataset"]["human_spans"],
        1.1 * paper["dataset"]["human_spans"])
    human_records = paper["dataset"]["human_records"]
    add("human records", human_records, ov["records"], human_records, human_records)
    for row in dataset_level.type_distribution(corpus).itertuples():
        ref = paper["table2_human_span_types"][row.type]["pct"]
        add(f"human share {row.type} (%)", ref, round(row.pct, 1), ref - 5, ref + 5)
    full = dataset_level.campaign_table(corpus).set_index("campaign")
    for folder, name in PAPER_NAME.items():
        ref = paper["table3_llm_campaigns"][name]["total"]
        value = int(full.loc[folder, "spans"]) if folder in full.index else 0
        lo, hi = (0, 10) if folder.startswith("o3") else (0.9 * ref, 1.1 * ref)
        add(f"{name} spans, all examples", ref, value, lo, hi)
    sub = dataset_level.campaign_table(corpus, dataset_level.stage2_examples(corpus), by_group=True).set_index("name")
    for name in list(HUMAN_TABLE4.values()) + ["gemma-3", "gpt-4o", "gpt-4o (LS)"]:
        folder = PAPER_LLM_CAMPAIGNS.get(name, name)
        ref = paper["table4_dataset_level_stage2_subset"][name]["total"]
        value = int(sub.loc[folder, "spans"]) if folder in sub.index else 0
        add(f"{name} spans, stage-2 examples", ref, value, 0.85 * ref, 1.15 * ref)
    ex = corpus.examples
    d = paper["dataset"]
    add("examples", d["examples"], len(ex), d["examples"], d["examples"])
    add("stage-2 examples", paper["campaigns"]["stage2"]["examples"], len(dataset_level.stage2_examples(corpus)),
        paper["campaigns"]["stage2"]["examples"], paper["campaigns"]["stage2"]["examples"])
    dw = d["description_words"]
    add("description words, mean", dw["mean"], round(float(ex["description_words"].mean()), 1), 0.9 * dw["mean"], 1.1 * dw["mean"])
    add("description words, min", dw["min"], int(ex["description_words"].min()), dw["min"], dw["max"])
    add("description words, max", dw["max"], int(ex["description_words"].max()), dw["min"], dw["max"])
    sw = d["summary_words"]
    add("summary words, mean", sw["mean"], round(float(ex["summary_words"].mean()), 2), sw["mean"] - 1, sw["mean"] + 1)
    add("summary words, min", sw["min"], int(ex["summary_words"].min()), sw["min"], sw["max"])
    add("summary words, max", sw["max"], int(ex["summary_words"].max()), sw["min"], sw["max"])
    add("span words, mean", d["span_words"]["mean"], round(ov["span_words_mean"], 2), 3, 5)
    add("span words, median", d["span_words"]["median"], ov["span_words_median"], 3, 3)
    return pd.DataFrame(rows)
