"""Card names in Ukrainian and Polish: proper names, so a table (rules text is rendered).

Style of the two editions: the Ukrainian rulebook writes names in Cyrillic as they sound
("Дерроу") and translates titles ("Спонсор", "Брокер"); the Polish rulebook keeps proper
names as printed ("Darrow", declined: "z Darrowem") and translates titles ("Sponsorka",
"Maklerka"). Descriptive names and nicknames are translated in both.

An entry is the nominative, or "n|g|d|a|i|l" (the six singular cases) for a name the
rules text declines; a leading "f:" marks a feminine name, "p:" a plural one, "x:" an
inanimate one (a ship). A name without case forms does not decline (Дерроу, Sefi).
"""

from __future__ import annotations

UK: dict[str, str] = {
    # Red
    "arlus": "Арлус",
    "dancer": "Танцюрист",
    "darrow": "Дерроу",
    "deanna": "f:Діанна",
    "eo": "f:Ео",
    "harmony": "f:Гармонія",
    "uncle-narol": "Дядько Нарол",
    # Brown
    "artisan-chef": "Шеф-кухар",
    "assassin": "Убивця",
    "gardener": "Садівник",
    "janitor": "Прибиральник",
    "mess-hall-cook": "Кухар їдальні",
    "modjob": "Моджоб|Моджоба|Моджобові|Моджоба|Моджобом|Моджобові",
    "nanny": "f:Няня",
    # Pink
    "calliope": "f:Калліопа",
    "conversationalist": "f:Співрозмовниця",
    "evey": "f:Еві",
    "garden-trained-rose": "f:Троянда з Саду",
    "masseuse": "f:Масажистка",
    "matteo": "Маттео",
    "theodora": "f:Теодора",
    # Violet
    "4d-painter": "4D-художник",
    "holo-host": "Головедучий",
    "mickey-the-carver": (
        "Міккі-Різьбяр|Міккі-Різьбяра|Міккі-Різьбяреві|Міккі-Різьбяра|Міккі-Різьбярем|Міккі-Різьбяреві"
    ),
    "musician": "Музикант",
    "reporter": "Репортер",
    "vlogger": "Влогер",
    "zanzibar": "Занзібар",
    # Yellow
    "dr-virany": "Доктор Вірані",
    "group-counselor": "Груповий психотерапевт",
    "hypnotist": "Гіпнотизер",
    "pathologist": "Патологоанатом",
    "psychologist": "Психолог",
    "researcher": "Дослідник",
    "surgeon": "Хірург",
    # Green
    "codebreaker": "Дешифрувальник",
    "dataport-specialist": "Фахівець з датапортів",
    "developer": "Розробник",
    "firewall-expert": "Експерт з мережевих екранів",
    "hacker": "Хакер",
    "holo-designer": "Голодизайнер",
    "online-gambler": "Онлайн-гравець",
    # Blue
    "invictus": "x:Інвіктус",
    "morning-star": "x:Ранкова Зоря",
    "orion": "f:Оріон",
    "pelus": "Пелус|Пелуса|Пелусові|Пелуса|Пелусом|Пелусові",
    "quietus": "x:Квієтус",
    "the-pax": "x:Пакс|Пакса|Паксові|Пакс|Паксом|Паксі",
    "virga": "f:Вірга|Вірги|Вірзі|Віргу|Віргою|Вірзі",
    # Orange
    "aegis-craftsman": "Майстер егід",
    "artificer": "Артефактник",
    "cyther": "Сайтер",
    "gravboot-cobbler": "Швець гравічобіт",
    "pulse-armorer": "Зброяр імпульсних обладунків",
    "pulse-fist-engineer": "Інженер імпульсних рукавиць",
    "razor-designer": "Конструктор лез",
    # Gray
    "bridge": "Брідж|Бріджа|Бріджеві|Бріджа|Бріджем|Бріджеві",
    "colonel-valentin": "Полковник Валентин",
    "danto": "Данто",
    "holiday": "f:Голідей",
    "sun-hwa": "f:Сун Хва",
    "trigg": "Трігг",
    "ugly-dan": "Бридкий Ден",
    # Obsidian
    "alfrun": "f:Альфрун",
    "alia-snowsparrow": "f:Алія Сніжна Горобчиха",
    "helga": "f:Гельга",
    "jopho": "Джофо",
    "ragnar": "Рагнар|Рагнара|Рагнарові|Рагнара|Рагнаром|Рагнарові",
    "sefi": "f:Сефі",
    "stained": "Заплямований",
    # Silver
    "banker": "Банкір",
    "ceo": "Гендиректор",
    "investor": "Інвестор",
    "loan-shark": "Лихвар|Лихваря|Лихвареві|Лихваря|Лихварем|Лихвареві",
    "quicksilver": "f:Ртуть|Ртуті|Ртуті|Ртуть|Ртуттю|Ртуті",
    "sponsor": "Спонсор",
    "stock-broker": "Брокер",
    # White
    "judge": "Суддя|Судді|Судді|Суддю|Суддею|Судді",
    "justice": "f:Справедливість",
    "magistrate": "Магістрат",
    "martyr": "Мученик",
    "orator": "Оратор",
    "priestess": "f:Жриця",
    "seer": "Провидець",
    # Copper
    "administrator": "Адміністратор",
    "auctioneer": "Аукціоніст",
    "bondilus": "Бонділус",
    "diplomat": "Дипломат",
    "lawyer": "Юрист",
    "politician": "Політик",
    "timony": "Тімоні",
    # Gold
    "aja": "f:Аджа",
    "antonia": "f:Антонія",
    "ash-lord": "Володар Попелу",
    "boneriders": "p:Кістяні Вершники",
    "cassius": "Кассій|Кассія|Кассію|Кассія|Кассієм|Кассієві",
    "fitchner": "Фічнер|Фічнера|Фічнерові|Фічнера|Фічнером|Фічнерові",
    "karnus": "Карнус|Карнуса|Карнусові|Карнуса|Карнусом|Карнусові",
    "lorn": "Лорн",
    "lysander": "Лісандр|Лісандра|Лісандрові|Лісандра|Лісандром|Лісандрові",
    "mustang": "f:Мустанг|Мустанга|Мустангові|Мустанга|Мустангом|Мустангові",
    "nero": "Нерон|Нерона|Неронові|Нерона|Нероном|Неронові",
    "octavia": "f:Октавія|Октавії|Октавії|Октавію|Октавією|Октавії",
    "pax-au-telemanus": (
        "Пакс ау Телеманус|Пакса ау Телемануса|Паксові ау Телеманусу|"
        "Пакса ау Телемануса|Паксом ау Телеманусом|Паксові ау Телеманусі"
    ),
    "romulus": "Ромул",
    "roque": "Рок|Рока|Рокові|Рока|Роком|Рокові",
    "sevro": "Севро",
    "tactus": "Тактус",
    "the-howlers": "p:Ревуни|Ревунів|Ревунам|Ревунів|Ревунами|Ревунах",
    "the-jackal": "Шакал|Шакала|Шакалові|Шакала|Шакалом|Шакалові",
    "the-telemanuses": "p:Телемануси",
    "victra": "f:Віктра|Віктри|Віктрі|Віктру|Віктрою|Віктрі",
}

PL: dict[str, str] = {
    # Red
    "arlus": "Arlus",
    "dancer": "Tancerz",
    "darrow": "Darrow|Darrowa|Darrowowi|Darrowa|Darrowem|Darrowie",
    "deanna": "f:Deanna",
    "eo": "f:Eo",
    "harmony": "f:Harmony",
    "uncle-narol": "Wujek Narol",
    # Brown
    "artisan-chef": "Mistrz Kuchni",
    "assassin": "Zabójca",
    "gardener": "Ogrodnik",
    "janitor": "Woźny",
    "mess-hall-cook": "Kucharz ze Stołówki",
    "modjob": "Modjob|Modjoba|Modjobowi|Modjoba|Modjobem|Modjobie",
    "nanny": "f:Niania",
    # Pink
    "calliope": "f:Calliope",
    "conversationalist": "f:Rozmówczyni",
    "evey": "f:Evey",
    "garden-trained-rose": "f:Róża z Ogrodów",
    "masseuse": "f:Masażystka",
    "matteo": "Matteo",
    "theodora": "f:Theodora",
    # Violet
    "4d-painter": "Malarz 4D",
    "holo-host": "Prezenter Holo",
    "mickey-the-carver": (
        "Mickey Rzeźbiarz|Mickeya Rzeźbiarza|Mickeyowi Rzeźbiarzowi|Mickeya Rzeźbiarza|"
        "Mickeyem Rzeźbiarzem|Mickeyu Rzeźbiarzu"
    ),
    "musician": "Muzyk",
    "reporter": "Reporter",
    "vlogger": "Vloger",
    "zanzibar": "Zanzibar",
    # Yellow
    "dr-virany": "Dr Virany",
    "group-counselor": "Terapeuta Grupowy",
    "hypnotist": "Hipnotyzer",
    "pathologist": "Patolog",
    "psychologist": "Psycholog",
    "researcher": "Badacz",
    "surgeon": "Chirurg",
    # Green
    "codebreaker": "Łamacz Szyfrów",
    "dataport-specialist": "Specjalista od Portów Danych",
    "developer": "Programista",
    "firewall-expert": "Ekspert od Zapór Sieciowych",
    "hacker": "Haker",
    "holo-designer": "Projektant Holo",
    "online-gambler": "Hazardzista Sieciowy",
    # Blue
    "invictus": "x:Invictus",
    "morning-star": "x:Gwiazda Zaranna",
    "orion": "f:Orion",
    "pelus": "Pelus|Pelusa|Pelusowi|Pelusa|Pelusem|Pelusie",
    "quietus": "x:Quietus",
    "the-pax": "x:Pax|Paxa|Paxowi|Pax|Paxem|Paxie",
    "virga": "f:Virga|Virgi|Virdze|Virgę|Virgą|Virdze",
    # Orange
    "aegis-craftsman": "Rzemieślnik Egid",
    "artificer": "Wynalazca",
    "cyther": "Cyther",
    "gravboot-cobbler": "Szewc Grawibutów",
    "pulse-armorer": "Płatnerz Pulsacyjny",
    "pulse-fist-engineer": "Inżynier Pulsacyjnych Pięści",
    "razor-designer": "Projektant Brzytw",
    # Gray
    "bridge": "Bridge|Bridge'a|Bridge'owi|Bridge'a|Bridge'em|Bridge'u",
    "colonel-valentin": "Pułkownik Valentin",
    "danto": "Danto",
    "holiday": "f:Holiday",
    "sun-hwa": "f:Sun Hwa",
    "trigg": "Trigg",
    "ugly-dan": "Brzydki Dan",
    # Obsidian
    "alfrun": "f:Alfrun",
    "alia-snowsparrow": "f:Alia Śnieżna Wróbliczka",
    "helga": "f:Helga",
    "jopho": "Jopho",
    "ragnar": "Ragnar|Ragnara|Ragnarowi|Ragnara|Ragnarem|Ragnarze",
    "sefi": "f:Sefi",
    "stained": "Splamiony",
    # Silver
    "banker": "Bankier",
    "ceo": "Prezes",
    "investor": "Inwestor",
    "loan-shark": "Lichwiarz|Lichwiarza|Lichwiarzowi|Lichwiarza|Lichwiarzem|Lichwiarzu",
    "quicksilver": "x:Żywe Srebro|Żywego Srebra|Żywemu Srebru|Żywe Srebro|Żywym Srebrem|Żywym Srebrze",
    "sponsor": "f:Sponsorka",
    "stock-broker": "f:Maklerka",
    # White
    "judge": "Sędzia|Sędziego|Sędziemu|Sędziego|Sędzią|Sędzi",
    "justice": "f:Sprawiedliwość",
    "magistrate": "Magistrat",
    "martyr": "Męczennik",
    "orator": "Mówca",
    "priestess": "f:Kapłanka",
    "seer": "Jasnowidz",
    # Copper
    "administrator": "Administrator",
    "auctioneer": "Licytator",
    "bondilus": "Bondilus",
    "diplomat": "Dyplomata",
    "lawyer": "Prawnik",
    "politician": "Polityk",
    "timony": "Timony",
    # Gold
    "aja": "f:Aja",
    "antonia": "f:Antonia",
    "ash-lord": "Władca Popiołów",
    "boneriders": "p:Kościejeźdźcy",
    "cassius": "Cassius|Cassiusa|Cassiusowi|Cassiusa|Cassiusem|Cassiusie",
    "fitchner": "Fitchner|Fitchnera|Fitchnerowi|Fitchnera|Fitchnerem|Fitchnerze",
    "karnus": "Karnus|Karnusa|Karnusowi|Karnusa|Karnusem|Karnusie",
    "lorn": "Lorn",
    "lysander": "Lysander|Lysandra|Lysandrowi|Lysandra|Lysandrem|Lysandrze",
    "mustang": "f:Mustang|Mustanga|Mustangowi|Mustanga|Mustangiem|Mustangu",
    "nero": "Neron|Nerona|Neronowi|Nerona|Neronem|Neronie",  # one stem in every case (not "Nero" … "Neronem")
    "octavia": "f:Octavia|Octavii|Octavii|Octavię|Octavią|Octavii",
    "pax-au-telemanus": (
        "Pax au Telemanus|Paxa au Telemanusa|Paxowi au Telemanusowi|Paxa au Telemanusa|"
        "Paxem au Telemanusem|Paxie au Telemanusie"
    ),
    "romulus": "Romulus",
    "roque": "Roque|Roque'a|Roque'owi|Roque'a|Roque'em|Roque'u",
    "sevro": "Sevro|Sevra|Sevrowi|Sevra|Sevrem|Sevrze",
    "tactus": "Tactus",
    "the-howlers": "p:Wyjce|Wyjców|Wyjcom|Wyjców|Wyjcami|Wyjcach",
    "the-jackal": "Szakal|Szakala|Szakalowi|Szakala|Szakalem|Szakalu",
    "the-telemanuses": "p:Telemanusowie",
    "victra": "f:Victra|Victry|Victrze|Victrę|Victrą|Victrze",
}

TABLES = {"uk": UK, "pl": PL}


def parse(entry: str) -> tuple[str, tuple[str, ...]]:
    """An entry -> (flags, the six case forms; one form for an indeclinable name)."""
    flags = ""
    while len(entry) > 2 and entry[1] == ":" and entry[0] in "fpx":
        flags += entry[0]
        entry = entry[2:]
    return flags, tuple(entry.split("|"))
