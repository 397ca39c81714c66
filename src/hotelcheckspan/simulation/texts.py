"""The stand-in's world and description texts: cities, hotels, their facts, and descriptions
built from 1-4 sources in source-specific wording plus marketing filler, de-duplicated with the
paper's rule (:mod:`.dedup`). Nothing here depends on the paper's annotations."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .dedup import deduplicate

# --- the world: places, names, facts ---------------------------------------------------------

CITIES = [  # (city, country, landmarks, station); the US, UK and Japan weighted as in Section 3.2
    ("New York", "US", ["Central Park", "Times Square", "the Empire State Building", "Bryant Park"], "Grand Central"),
    ("Chicago", "US", ["Millennium Park", "Navy Pier", "the Art Institute", "Union Station"], "Clark/Lake"),
    ("San Francisco", "US", ["Union Square", "Fisherman's Wharf", "the Ferry Building", "Chinatown"], "Powell Street"),
    (
        "Miami",
        "US",
        ["South Beach", "Bayside Marketplace", "the Wynwood Walls", "Brickell City Centre"],
        "Government Center",
    ),
    ("Boston", "US", ["Boston Common", "Faneuil Hall", "Fenway Park", "the Seaport"], "Park Street"),
    ("Seattle", "US", ["Pike Place Market", "the Space Needle", "Pioneer Square", "Lake Union"], "Westlake"),
    ("Orlando", "US", ["Disney Springs", "the convention center", "Lake Eola", "International Drive"], "Church Street"),
    (
        "Nashville",
        "US",
        ["Broadway", "the Ryman Auditorium", "the Country Music Hall of Fame", "Centennial Park"],
        "Riverfront",
    ),
    ("London", "UK", ["the British Museum", "Covent Garden", "Hyde Park", "the Tower of London"], "King's Cross"),
    (
        "Edinburgh",
        "UK",
        ["Edinburgh Castle", "the Royal Mile", "Princes Street Gardens", "Holyrood Palace"],
        "Waverley",
    ),
    (
        "Manchester",
        "UK",
        ["Piccadilly Gardens", "the Northern Quarter", "Old Trafford", "Spinningfields"],
        "Piccadilly",
    ),
    ("Tokyo", "Japan", ["Shinjuku Gyoen", "the Tokyo Tower", "Senso-ji Temple", "Shibuya Crossing"], "Shinjuku"),
    ("Kyoto", "Japan", ["Nishiki Market", "Kiyomizu-dera", "Gion", "the Imperial Palace"], "Kyoto"),
    ("Osaka", "Japan", ["Dotonbori", "Osaka Castle", "the Umeda Sky Building", "Namba Parks"], "Umeda"),
    ("Paris", "France", ["the Louvre", "the Eiffel Tower", "Notre-Dame", "the Marais"], "Gare du Nord"),
    (
        "Berlin",
        "Germany",
        ["the Brandenburg Gate", "Museum Island", "Alexanderplatz", "the East Side Gallery"],
        "Hauptbahnhof",
    ),
    ("Rome", "Italy", ["the Colosseum", "the Trevi Fountain", "the Pantheon", "the Vatican Museums"], "Termini"),
    ("Barcelona", "Spain", ["La Rambla", "the Sagrada Familia", "Barceloneta Beach", "Park Guell"], "Sants"),
    ("Amsterdam", "Netherlands", ["Dam Square", "the Rijksmuseum", "Vondelpark", "the Anne Frank House"], "Centraal"),
    (
        "Vienna",
        "Austria",
        ["St. Stephen's Cathedral", "the Hofburg", "the Naschmarkt", "Schonbrunn Palace"],
        "Westbahnhof",
    ),
    ("Prague", "Czechia", ["Old Town Square", "Charles Bridge", "Prague Castle", "Wenceslas Square"], "Hlavni nadrazi"),
    ("Lisbon", "Portugal", ["Rossio Square", "the Belem Tower", "Alfama", "Commerce Square"], "Cais do Sodre"),
    (
        "Dublin",
        "Ireland",
        ["Trinity College", "Temple Bar", "St. Stephen's Green", "the Guinness Storehouse"],
        "Connolly",
    ),
    ("Copenhagen", "Denmark", ["Tivoli Gardens", "Nyhavn", "the Little Mermaid", "Stroget"], "Central Station"),
    ("Stockholm", "Sweden", ["Gamla Stan", "the Vasa Museum", "Djurgarden", "Stureplan"], "T-Centralen"),
    ("Oslo", "Norway", ["the Opera House", "Aker Brygge", "Karl Johans gate", "Vigeland Park"], "Oslo S"),
    ("Zurich", "Switzerland", ["Bahnhofstrasse", "Lake Zurich", "the Old Town", "Grossmunster"], "Zurich HB"),
    ("Athens", "Greece", ["the Acropolis", "Syntagma Square", "Plaka", "the Ancient Agora"], "Monastiraki"),
    ("Istanbul", "Turkey", ["the Blue Mosque", "the Grand Bazaar", "Taksim Square", "Hagia Sophia"], "Sirkeci"),
    (
        "Dubai",
        "UAE",
        ["the Mall of the Emirates", "Dubai Marina", "the Burj Khalifa", "Jumeirah Beach"],
        "Mall of the Emirates",
    ),
    (
        "Marrakech",
        "Morocco",
        ["Jemaa el-Fnaa", "the Majorelle Garden", "the Koutoubia Mosque", "the medina"],
        "Marrakech",
    ),
    ("Cape Town", "South Africa", ["the V&A Waterfront", "Table Mountain", "Camps Bay", "Long Street"], "Cape Town"),
    (
        "Nairobi",
        "Kenya",
        ["Nairobi National Park", "the Karen Blixen Museum", "Westlands", "the city market"],
        "Nairobi Central",
    ),
    ("Cairo", "Egypt", ["the Egyptian Museum", "Tahrir Square", "Khan el-Khalili", "the Cairo Tower"], "Sadat"),
    ("Bangkok", "Thailand", ["the Grand Palace", "Khao San Road", "Lumpini Park", "Siam Paragon"], "Siam"),
    ("Singapore", "Singapore", ["Marina Bay Sands", "Orchard Road", "Gardens by the Bay", "Clarke Quay"], "City Hall"),
    ("Seoul", "South Korea", ["Gyeongbokgung Palace", "Myeongdong", "N Seoul Tower", "Insadong"], "Seoul Station"),
    (
        "Hong Kong",
        "China",
        ["Victoria Harbour", "Temple Street Night Market", "the Peak Tram", "Times Square"],
        "Central",
    ),
    ("Sydney", "Australia", ["the Opera House", "Darling Harbour", "Bondi Beach", "the Rocks"], "Circular Quay"),
    ("Auckland", "New Zealand", ["the Sky Tower", "the Viaduct Harbour", "Queen Street", "Mount Eden"], "Britomart"),
    ("Toronto", "Canada", ["the CN Tower", "Union Station", "the Distillery District", "Kensington Market"], "Union"),
    ("Vancouver", "Canada", ["Stanley Park", "Gastown", "Granville Island", "Canada Place"], "Waterfront"),
    (
        "Mexico City",
        "Mexico",
        ["the Zocalo", "Chapultepec Park", "the Palacio de Bellas Artes", "Roma Norte"],
        "Zocalo",
    ),
    ("Cancun", "Mexico", ["the Hotel Zone", "Playa Delfines", "La Isla Mall", "the ferry terminal"], "Cancun Centro"),
    (
        "Rio de Janeiro",
        "Brazil",
        ["Copacabana Beach", "Sugarloaf Mountain", "Ipanema", "the Selaron Steps"],
        "Cardeal Arcoverde",
    ),
    ("Buenos Aires", "Argentina", ["Plaza de Mayo", "the Recoleta Cemetery", "San Telmo", "Puerto Madero"], "Retiro"),
    ("Lima", "Peru", ["the Plaza de Armas", "Miraflores", "Barranco", "the Larcomar mall"], "Central"),
    ("Santiago", "Chile", ["the Plaza de Armas", "Cerro San Cristobal", "Lastarria", "Costanera Center"], "Baquedano"),
    ("Bogota", "Colombia", ["La Candelaria", "the Gold Museum", "Monserrate", "Zona T"], "Museo del Oro"),
    ("Reykjavik", "Iceland", ["Hallgrimskirkja", "the Harpa concert hall", "Laugavegur", "the Old Harbour"], "Hlemmur"),
    ("Warsaw", "Poland", ["the Old Town", "the Palace of Culture", "Lazienki Park", "Nowy Swiat"], "Centralna"),
    (
        "Budapest",
        "Hungary",
        ["the Parliament", "the Chain Bridge", "the Szechenyi Baths", "Andrassy Avenue"],
        "Deak Ferenc ter",
    ),
    ("Bali", "Indonesia", ["Seminyak Beach", "the Ubud Monkey Forest", "Kuta Beach", "Tanah Lot"], "Denpasar"),
    ("Hanoi", "Vietnam", ["Hoan Kiem Lake", "the Old Quarter", "the Temple of Literature", "the Opera House"], "Hanoi"),
    ("Mumbai", "India", ["the Gateway of India", "Marine Drive", "Colaba Causeway", "Juhu Beach"], "Churchgate"),
    ("Tel Aviv", "Israel", ["Gordon Beach", "the Carmel Market", "Rothschild Boulevard", "Jaffa Port"], "HaShalom"),
]
COUNTRY_WEIGHT = {"US": 0.30 / 8, "UK": 0.08 / 3, "Japan": 0.07 / 3}
UNMENTIONED_PLACES = [
    "the old town",
    "the waterfront",
    "the main shopping street",
    "the beach",
    "the harbour",
    "the convention centre",
    "the nightlife district",
    "the botanical gardens",
    "the river promenade",
    "the cathedral",
    "the central market",
    "the national museum",
    "the university campus",
]

NAME_FIRST = [
    "Harbour",
    "Maple",
    "Grand",
    "Riverside",
    "Park",
    "Royal",
    "Garden",
    "Crown",
    "Lakeside",
    "Central",
    "Old Mill",
    "Sunset",
    "Cedar",
    "Oak",
    "Station",
    "Bay",
    "Hillside",
    "Willow",
    "Beacon",
    "Ivy",
    "Regent",
    "Kingsley",
    "Seaview",
    "Meridian",
    "Linden",
    "Aurora",
    "Copper",
    "Granite",
    "Silver",
    "Orchard",
]
NAME_KIND = [
    "Hotel",
    "Inn",
    "Suites",
    "Lodge",
    "Residences",
    "Hotel & Spa",
    "Boutique Hotel",
    "Guesthouse",
    "Motel",
    "B&B",
    "Apartments",
]
STYLES = ["boutique", "modern", "historic", "family-run", "contemporary", "classic", "stylish", "cosy"]
CUISINES = [
    "Italian",
    "French",
    "Japanese",
    "Mediterranean",
    "Thai",
    "Mexican",
    "Indian",
    "seafood",
    "steakhouse",
    "farm-to-table",
    "Spanish tapas",
    "Middle Eastern",
]
AMENITIES = [
    "an outdoor pool",
    "a spa",
    "a sauna",
    "a hot tub",
    "a garden",
    "a terrace",
    "free WiFi",
    "free parking",
    "24-hour room service",
    "a bar",
    "a lounge",
    "a laundry service",
    "a concierge desk",
    "bike rental",
    "an airport shuttle",
    "a children's playground",
    "a library",
    "a games room",
]
ROOMS = [
    "spacious rooms",
    "modern rooms",
    "recently renovated rooms",
    "family suites",
    "rooms with kitchenettes",
    "soundproofed rooms",
    "rooms with private balconies",
    "air-conditioned rooms",
    "rooms with rain showers",
    "apartments with full kitchens",
]
VIEWS = ["sea", "city", "mountain", "river", "garden", "lake", "harbour", "skyline"]
ATMOS = [
    "a relaxing atmosphere",
    "a peaceful retreat",
    "a romantic setting",
    "a lively atmosphere",
    "a luxurious stay",
    "elegant decor",
    "a memorable stay",
    "a welcoming atmosphere",
    "a tranquil escape",
    "charming surroundings",
    "a vibrant setting",
    "a cosy ambience",
]
SOURCES = ["booking site", "travel agency", "hotel website", "review portal"]


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


# --- text of the descriptions ----------------------------------------------------------------

FILL_SUBJ = [
    "Each room",
    "Every guest room",
    "All units",
    "The rooms",
    "Selected rooms",
    "The suites",
    "The studios",
    "Guests",
    "Our staff",
    "The front desk",
    "The property",
    "The hotel",
    "The building",
    "The lobby",
]
FILL_VERB = ["comes with", "features", "provides", "includes", "is equipped with", "offers", "has", "boasts"]
FILL_OBJ = [
    "a flat-screen TV",
    "a minibar",
    "a work desk",
    "a safety deposit box",
    "an electric kettle",
    "free toiletries",
    "a hairdryer",
    "blackout curtains",
    "a seating area",
    "a private bathroom",
    "an ironing board",
    "a coffee machine",
    "bathrobes and slippers",
    "a wardrobe",
    "satellite channels",
    "a refrigerator",
    "tea and coffee facilities",
    "a rain shower",
    "heating",
    "a sofa bed",
    "luggage storage",
    "multilingual staff",
    "a tour desk",
    "express check-in and check-out",
    "a currency exchange",
]
FILL_TAIL = [
    "for added comfort",
    "for every stay",
    "at no extra cost",
    "in most categories",
    "on request",
    "throughout the property",
    "for guests' convenience",
    "as standard",
    "in every category",
    "",
    "",
    "",
]
POLICIES = [
    "Check-in is from {h}:00 and check-out is until {h2}:00.",
    "Pets are {pets}.",
    "Children of all ages are welcome.",
    "Smoking is not allowed anywhere on the property.",
    "A security deposit is required on arrival.",
    "The hotel accepts all major credit cards.",
    "Quiet hours are observed from {h3}:00.",
    "Extra beds are available on request.",
]


def _filler(rng: np.random.Generator) -> str:
    if rng.random() < 0.12:
        s = POLICIES[rng.integers(len(POLICIES))]
        return s.format(
            h=int(rng.integers(12, 16)),
            h2=int(rng.integers(10, 13)),
            h3=int(rng.integers(21, 24)),
            pets=["allowed on request", "not allowed", "allowed free of charge"][rng.integers(3)],
        )
    k = int(rng.integers(1, 3))
    objs = list(rng.choice(FILL_OBJ, size=k + 1, replace=False))
    obj = objs[0] if k == 0 else ", ".join(objs[:-1]) + " and " + objs[-1]
    tail = FILL_TAIL[rng.integers(len(FILL_TAIL))]
    return f"{FILL_SUBJ[rng.integers(len(FILL_SUBJ))]} {FILL_VERB[rng.integers(len(FILL_VERB))]} {obj}" + (
        f" {tail}." if tail else "."
    )


def _hotel_facts(h: Hotel, rng: np.random.Generator) -> list[list[str]]:
    """Fact sentences in two wordings; sources pick one, so sources repeat each other."""
    lm = h.landmarks
    am = list(rng.choice(AMENITIES, size=3, replace=False))
    return [
        [
            f"{h.name} is a {h.style} property in {h.city}, {h.country}.",
            f"Set in {h.city}, {h.name} is a {h.style} place to stay.",
        ],
        [f"It is {h.centre_km} km from the centre of {h.city}.", f"The centre of {h.city} is {h.centre_km} km away."],
        [
            f"{lm[1]} is {round(float(rng.uniform(0.5, 6)), 1)} km from the property.",
            f"Guests can reach {lm[1]} within a short ride.",
        ],
        [f"The property features {am[0]}, {am[1]} and {am[2]}.", f"Amenities include {am[0]}, {am[1]} and {am[2]}."],
        [f"The on-site restaurant serves {h.cuisine} cuisine.", f"A {h.cuisine} restaurant is located on site."],
        [
            f"The nearest airport is {int(rng.integers(8, 45))} km from {h.name}.",
            f"{h.name} is {int(rng.integers(20, 60))} minutes by car from the airport.",
        ],
    ]


def _description(
    h: Hotel, evidence: list[str], n_sources: int, target_words: int, rng: np.random.Generator
) -> tuple[str, list[str], int, int]:
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
        words = sum(len(s.split()) for s in sents)
        while words < per_source:
            sents.append(_filler(rng))
            words += len(sents[-1].split())
        sources.append(sents)
    segments = [s for src in sources for s in src]
    kept, dropped = deduplicate(segments)
    return " ".join(kept), SOURCES[:n_sources], len(segments), len(dropped)
