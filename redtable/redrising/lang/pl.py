"""Polish: the words and phrase templates of the card texts.

Terms from the Polish rulebook (Red Rising, Phalanx): lokacja, zagrać (deploy), Zwiad
(scout), odrzucić (banish), odsłonić (reveal), połóż (nie zagraj) (place, not deploy),
zyskać (gain), znacznik Suwerena, Helium, znacznik Wpływu, tor Floty (pole), Jowisz,
Mars, Luna ("z Luni", as the rulebook writes it), Instytut, stos (the deck), przeciwnik,
wartość podstawowa, punkty; castes as capitalised nouns ("za każdego Złotego",
"jeśli ze Srebrnym", "jeśli bez Niebieskich"). Templates start in lower case: sentences
are capitalised when finished.
"""

from __future__ import annotations

import re

from .core import NP, Adj, Lang, Noun, Subst

CARD = Noun("karta|karty|karcie|kartę|kartą|karcie", "karty|kart|kartom|karty|kartami|kartach", "f")
TOKEN = Noun(
    "znacznik|znacznika|znacznikowi|znacznik|znacznikiem|znaczniku",
    "znaczniki|znaczników|znacznikom|znaczniki|znacznikami|znacznikach",
    "m",
)

_COLOURS = (
    ("Czerwon", "pl", "Czerwoni"),
    ("Brązow", "pl", "Brązowi"),
    ("Różow", "pl", "Różowi"),
    ("Fioletow", "pl", "Fioletowi"),
    ("Żółt", "pl", "Żółci"),
    ("Zielon", "pl", "Zieloni"),
    ("Niebiesk", "pl_ki", "Niebiescy"),
    ("Pomarańczow", "pl", "Pomarańczowi"),
    ("Szar", "pl", "Szarzy"),
    ("Obsydianow", "pl", "Obsydianowi"),
    ("Srebrn", "pl", "Srebrni"),
    ("Biał", "pl", "Biali"),
    ("Miedzian", "pl", "Miedziani"),
    ("Złot", "pl", "Złoci"),
)

P: dict = {
    # an unstressed pronoun goes before an infinitive: "możesz go zyskać"
    "_rewrite": ((re.compile(r"\b(zyskać|odrzucić|zagrać|przenieść|położyć|odsłonić|wziąć) (go|ją|je)\b"), r"\2 \1"),),
    # ------------------------------------------------------------------ structure
    "then_join": ", a następnie ",
    "if": "jeśli {cond}, {body}",
    "otherwise": "w przeciwnym razie {body}",
    "unless": "{body}, chyba że {cond}",
    "may": "możesz {body}",
    "may_opp": "ten przeciwnik może {body}",
    "if_you_do": "jeśli to zrobisz, {body}",
    "if_you_do_and": "jeśli to zrobisz i {cond}, {body}",
    "either": "albo {a}, albo {b}",
    "nor": "ani",
    "pred_case": "n",
    "pron_n": {"m": "on", "f": "ona", "n": "ono", "p": "one"},
    # ------------------------------------------------------------------ tokens
    "helium": ("zyskaj {n:a}", "zyskać {n:a}"),
    "lose_helium": ("odłóż {n:a} do banku", "odłożyć {n:a} do banku"),
    "advance": ("przesuń się o {n:a} do przodu na torze Floty", "przesunąć się o {n:a} do przodu na torze Floty"),
    "regress": ("cofnij się o {n:a} na torze Floty", "cofnąć się o {n:a} na torze Floty"),
    "influence": ("połóż {n:a} na Instytucie", "położyć {n:a} na Instytucie"),
    "lose_influence": ("zabierz {n:a} z Instytutu", "zabrać {n:a} z Instytutu"),
    "others_advance": "wszyscy pozostali gracze przesuwają się o {n:a} do przodu na torze Floty",
    "lowcaste_q_loses_helium": "ten przeciwnik traci {n:a}",
    "sovereign": ("zyskaj znacznik Suwerena", "zyskać znacznik Suwerena"),
    "end_turn": ("zakończ swoją turę", "zakończyć swoją turę"),
    "points": (
        "zyskaj tyle punktów, ile wynosi wartość podstawowa {c:g}",
        "zyskać tyle punktów, ile wynosi wartość podstawowa {c:g}",
    ),
    # ------------------------------------------------------------------ this card
    "banish_self": ("odrzuć tę kartę", "odrzucić tę kartę"),
    "regain_self": ("weź tę kartę z powrotem na rękę", "wziąć tę kartę z powrotem na rękę"),
    "lowcaste_give_self_right": (
        "daj tę kartę graczowi po twojej prawej stronie",
        "dać tę kartę graczowi po twojej prawej stronie",
    ),
    # ------------------------------------------------------------------ places and cards
    "here_from": "z tej lokacji",
    "here_in": "na tej lokacji",
    "here_of": "tej lokacji",
    "scope_any": "z dowolnej lokacji",
    "scope_other_any": "z dowolnej innej lokacji",
    "of_other_top": "innej lokacji",
    "of_any_top": "dowolnej lokacji",
    "on_other_top": "z wierzchu innej lokacji",
    "on_any_top": "z wierzchu dowolnej lokacji",
    "everywhere": "na wszystkich lokacjach",
    "not_color": "spoza {what:gp}",
    "even": "o parzystej wartości podstawowej",
    "odd": "o nieparzystej wartości podstawowej",
    "under_this": "bezpośrednio pod tą kartą",
    "bottom_tail": "{loc} (jeśli to nie ta karta)",
    "bottom_on_tail": "{loc} (jeśli to nie ta karta)",
    # whose hand ({hand}): the reader's, or the subject's own (Polish says "swojej" for both)
    "your_hand": {"you": "ze swojej ręki", "own": "ze swojej ręki"},
    "each_of_them": "każdą z nich",
    "each_card_of_that_colour": "każdą kartę tego koloru",
    # ------------------------------------------------------------------ the deck
    "top_of_deck": ("odsłoń wierzchnią kartę ze stosu", "odsłonić wierzchnią kartę ze stosu"),
    "deck_bottom": ("odsłoń kartę ze spodu stosu", "odsłonić kartę ze spodu stosu"),
    "draw1": ("zyskaj wierzchnią kartę ze stosu", "zyskać wierzchnią kartę ze stosu"),
    "draw_n": ("zyskaj {n:a} ze stosu", "zyskać {n:a} ze stosu"),
    "reveal_under": (
        "odsłoń {n:a} ze stosu i połóż je pod tą kartą w dowolnej kolejności",
        "odsłonić {n:a} ze stosu i położyć je pod tą kartą w dowolnej kolejności",
    ),
    "facedown_others": (
        "obejrzyj {n:a} ze stosu\npołóż po 1 z nich zakrytą na wierzchu każdej innej lokacji\n"
        "dopóki te karty są zakryte, nie mają koloru",
        "obejrzeć {n:a} ze stosu\npołóż po 1 z nich zakrytą na wierzchu każdej innej lokacji\n"
        "dopóki te karty są zakryte, nie mają koloru",
    ),
    "reveal_gain_colors": (
        "odsłoń {n:a} z wierzchu stosu i zyskaj wszystkie karty nazwanego koloru\n"
        "przetasuj pozostałe karty i połóż je z powrotem na wierzch stosu",
        "odsłonić {n:a} z wierzchu stosu i zyskać wszystkie karty nazwanego koloru\n"
        "przetasuj pozostałe karty i połóż je z powrotem na wierzch stosu",
    ),
    "lowcaste_to_bottom": (
        "połóż odsłonięte karty na spód stosu w dowolnej kolejności",
        "położyć odsłonięte karty na spód stosu w dowolnej kolejności",
    ),
    "dig": (
        "odsłaniaj karty ze stosu, aż znajdziesz {what:a}\n"
        "zyskaj go, a odsłonięte karty połóż na spód stosu w dowolnej kolejności",
        "odsłaniać karty ze stosu, aż znajdziesz {what:a}\n"
        "zyskaj go, a odsłonięte karty połóż na spód stosu w dowolnej kolejności",
    ),
    # ------------------------------------------------------------------ the bound card
    "gain_c": ("zyskaj {c:a}", "zyskać {c:a}"),
    "banish_c": ("odrzuć {c:a}", "odrzucić {c:a}"),
    "move_c_another": ("przenieś {c:a} na wierzch innej lokacji", "przenieść {c:a} na wierzch innej lokacji"),
    "move_c_other_than_its": (
        "przenieś {c:a} na wierzch dowolnej lokacji poza tą, na której {pron} leży",
        "przenieść {c:a} na wierzch dowolnej lokacji poza tą, na której {pron} leży",
    ),
    "move_c_under_src": ("przenieś {c:a} bezpośrednio pod tę kartę", "przenieść {c:a} bezpośrednio pod tę kartę"),
    "move_c_any": ("przenieś {c:a} na wierzch dowolnej lokacji", "przenieść {c:a} na wierzch dowolnej lokacji"),
    "move_c_to": ("przenieś {c:a} na wierzch {dest}", "przenieść {c:a} na wierzch {dest}"),
    "move_card": ("przenieś {what:a} na wierzch {dest}", "przenieść {what:a} na wierzch {dest}"),
    "dest_another": "innej lokacji",
    "dest_different": "dowolnej lokacji poza tą, na której {pron} leży",
    "dest_another_no_same_color": "innej lokacji, na której nie ma kart tego samego koloru co {pron}",
    "deploy_c_to": ("zagraj {c:a} {to}", "zagrać {c:a} {to}"),
    "deploy_c": ("zagraj {c:a} na inną lokację", "zagrać {c:a} na inną lokację"),
    "lowcaste_deploy_c": ("zagraj {c:a} odkrytą na inną lokację", "zagrać {c:a} odkrytą na inną lokację"),
    "lowcaste_move_c_onto_src": ("przenieś {c:a} na tę kartę", "przenieść {c:a} na tę kartę"),
    "lowcaste_origin_bonus": ("zyskaj bonus pierwotnej lokacji {c:g}", "zyskać bonus pierwotnej lokacji {c:g}"),
    "highcaste_to_deck": ("połóż {c:a} na wierzch lub na spód stosu", "położyć {c:a} na wierzch lub na spód stosu"),
    "place_c_bottom_here": (
        "połóż (nie zagraj) {c:a} na spód tej lokacji",
        "położyć (nie zagrywając) {c:a} na spód tej lokacji",
    ),
    "place_c_another": (
        "połóż (nie zagraj) {c:a} na wierzch innej lokacji",
        "położyć (nie zagrywając) {c:a} na wierzch innej lokacji",
    ),
    "place_c_any": (
        "połóż (nie zagraj) {c:a} na wierzch dowolnej lokacji",
        "położyć (nie zagrywając) {c:a} na wierzch dowolnej lokacji",
    ),
    "place_c_dest": (
        "połóż (nie zagraj) {c:a} na wierzch tej samej lokacji",
        "położyć (nie zagrywając) {c:a} na wierzch tej samej lokacji",
    ),
    # ------------------------------------------------------------------ banished cards
    "gain_banished": ("zyskaj {what:a}", "zyskać {what:a}"),
    "banish_all": ("odrzuć {what:ap} {where}", "odrzucić {what:ap} {where}"),
    "choose_up_to": ("wybierz do {n:g} i {body}", "wybrać do {n:g} i {body}"),
    "these_banished": "dowolną liczbę takich odrzuconych kart: {items}",
    "any_number_banished": "dowolną liczbę {what:gp}",
    "any_one_banished": ("any", "banished"),
    "banish_here": (
        "odrzuć tę kartę i wszystkie karty z tej lokacji",
        "odrzucić tę kartę i wszystkie karty z tej lokacji",
    ),
    "for_each_banished": "za każdego odrzuconego w ten sposób {what:a} {body} (maksymalnie {most})",
    # ------------------------------------------------------------------ your hand
    "swap": (
        "odrzuć 1 kartę {hand} i zyskaj wierzchnią kartę ze stosu",
        "odrzucić 1 kartę {hand} i zyskać wierzchnią kartę ze stosu",
    ),
    "swap_other": (
        "odrzuć 1 inną kartę {hand} i zyskaj wierzchnią kartę ze stosu",
        "odrzucić 1 inną kartę {hand} i zyskać wierzchnią kartę ze stosu",
    ),
    "reveal_hand": ("odsłoń {what:a} {hand}", "odsłonić {what:a} {hand}"),
    "banish_from_hand": ("odrzuć {what:a} {hand}", "odrzucić {what:a} {hand}"),
    "reveal_to": "jeśli masz na ręce {n} lub więcej {what:gp}, odsłoń ich, aby {body}",
    # ------------------------------------------------------------------ opponents
    "choose_opponent": ("wybierz przeciwnika", "wybrać przeciwnika"),
    "choose_opponent_with": ("wybierz przeciwnika, który ma {res}", "wybrać przeciwnika, który ma {res}"),
    "res_helium": "Helium",
    "res_influence": "znaczniki Wpływu na Instytucie",
    "res_fleet": "pozycję na torze Floty wyższą niż 0",
    "gold_opp_banish": "ten przeciwnik odrzuca 1 kartę ze swojej ręki",
    "steal": (
        "ukradnij 1 kartę temu przeciwnikowi (to on wybiera kartę)",
        "ukraść 1 kartę temu przeciwnikowi (to on wybiera kartę)",
    ),
    "look_hand": ("obejrzyj rękę tego przeciwnika, {rest}", "obejrzeć rękę tego przeciwnika, {rest}"),
    "name_card": ("nazwij kartę, {rest}", "nazwać kartę, {rest}"),
    "random_pick": "a następnie losowo wybierz kartę z jego ręki",
    "reveal_instead": "możesz odsłonić {who:a}, aby zamiast tego {body}",
    "as_q": "ten przeciwnik: {body}",
    "each_player": "zgodnie z ruchem wskazówek zegara, zaczynając od ciebie, każdy gracz: {body}",
    "split": "ten przeciwnik wybiera dla siebie jedno: {opts}\nty zyskujesz {rest}",
    "split_both": "obie pozostałe opcje",
    "split_all": "wszystkie pozostałe opcje",
    "each_neighbours": "każdy sąsiedni gracz {body}",
    "each_opponents": "każdy przeciwnik {body}",
    "q_reveals_random": "odsłania losową kartę ze swojej ręki",
    "q_reveals": "musi odsłonić {what:a} ze swojej ręki",
    "if_they_cant": "jeśli nie może, {body}",
    "highcaste_steal_helium_most": (
        "ukradnij 1 znacznik Helium przeciwnikowi, który ma najwięcej Helium (w razie remisu wybierasz, "
        "któremu z nich)",
        "ukraść 1 znacznik Helium przeciwnikowi, który ma najwięcej Helium (w razie remisu wybierasz, któremu z nich)",
    ),
    "loan_shark": (
        "ten przeciwnik może dać ci {two:a}, aby natychmiast wykonać 1 turę poza kolejnością (ale nie "
        "może zyskać tej karty), zanim zakończysz swoją turę\nw przeciwnym razie musi dać ci {one:a}"
    ),
    # ------------------------------------------------------------------ colours, paying, counting
    "choose_color": ("wybierz kolor", "wybrać kolor"),
    "choose_color_except": ("wybierz kolor inny niż {what:n}", "wybrać kolor inny niż {what:n}"),
    "one_colour_except": "1 kolor inny niż {what:n}",
    "name_colors": ("nazwij {what}, a następnie {rest}", "nazwać {what}, a następnie {rest}"),
    "pay": ("zapłać {n:a}, aby {body}", "zapłacić {n:a}, aby {body}"),
    "helium_per": ("zyskaj {one:a} za {what:a} {where}", "zyskać {one:a} za {what:a} {where}"),
    "count_gain_helium": ("zyskaj {one:a} za {what} {at}", "zyskać {one:a} za {what} {at}"),
    "count_gain_influence": (
        "za {what} {at} połóż {one:a} na Instytucie",
        "położyć {one:a} na Instytucie za {what} {at}",
    ),
    "gold_move_under_all": (
        "przenieś wszystkie karty leżące pod tą kartą na tej lokacji na wierzch innej lokacji, "
        "zachowując ich kolejność",
        "przenieść wszystkie karty leżące pod tą kartą na tej lokacji na wierzch innej "
        "lokacji, zachowując ich kolejność",
    ),
    # ------------------------------------------------------------------ conditions
    "deployed_on": "ta karta została zagrana {where}",
    "deployed_on_pron": "została zagrana {where}",
    "has_sovereign": "masz znacznik Suwerena",
    "c_color": "jest to {what:n}",
    "c_not_color": "nie jest to {what:n}",
    "c_name": "jest to {what:n}",
    "src_on_color": "zagrałeś tę kartę bezpośrednio na {what:a}",
    "src_on_color_pron": "zagrałeś ją bezpośrednio na {what:a}",
    "not": "nie {cond}",
    "gold_c_color": "{c:n} jest {what}",
    "gold_c_not_color": "{c:n} nie jest {what}",
    "count_at_least": "w ten sposób odrzucono {n} lub więcej {what:gp}",
    "gold_picked_named": "wybrałeś nazwaną kartę",
    "gold_can_target": "można wybrać przeciwnika",
    "gold_target_has_cards": "przeciwnik, którego możesz wybrać, ma karty na ręce",
    "highcaste_can_trade": "nie wymieniałeś jeszcze zasobów w tej turze",
    "highcaste_can_place_influence": "masz jeszcze znaczniki Wpływu do położenia",
    "highcaste_deck_nonempty": "stos nie jest pusty",
    "highcaste_can_swap": "masz kartę do odrzucenia, a stos nie jest pusty",
    "highcaste_fewest_cards": "masz najmniej kart na ręce (remis też się liczy)",
    "highcaste_c_named": "kolor tamtej karty jest jednym z nazwanych przez ciebie",
    "lowcaste_src_alone": "była to jedyna inna karta na tej lokacji",
    "at_least_helium": "masz co najmniej {n:a}",
    "at_least_influence": "masz co najmniej {n:a} na Instytucie",
    "at_least_fleet": "dotarłeś do {n}. pola toru Floty",
    "hand_has": "masz na ręce {what:a}",
    "banished_has": "jest {what:n}",
    "any_card": "możesz zyskać {what:a}",
    "more_than_right_influence": "masz więcej znaczników Wpływu na Instytucie niż gracz po twojej prawej stronie",
    "more_than_right_helium": "masz więcej Helium niż gracz po twojej prawej stronie",
    "more_than_right_fleet": "jesteś dalej na torze Floty niż gracz po twojej prawej stronie",
    # ------------------------------------------------------------------ the gallery's fixed texts
    "block_steal": "Gdy przeciwnik próbuje ukraść lub odrzucić twoje karty, odsłoń tę kartę, aby go zablokować.",
    "block_sovereign": (
        "Jeśli przeciwnik próbuje zabrać ci znacznik Suwerena, możesz go zablokować, odsłaniając "
        "i odrzucając tę kartę, a następnie {after}"
    ),
    "gray": "Możesz potraktować tę kartę jako kartę dowolnego innego koloru (dodatkowo do Szarego).",
    "orange": "Możesz potraktować tę kartę jako kartę innej wybranej postaci.",
    # ------------------------------------------------------------------ end-game bonuses
    "b_points": "{pts}, {cond}",
    "b_each": "{pts} {each}{cap}",
    "b_cap": " (maksymalnie {n:a})",
    "b_if": "jeśli {cond}",
    "b_unless": "chyba że {cond}",
    "b_unless_with": "jeśli bez {what:g}",
    "b_with": "z {what:i}",
    "b_with_n": "z {n} {what:ip}",
    "b_with_no": "bez {what:gp}",
    "b_without": "bez {what:g}",
    "b_only_one": "to twój jedyny {what:n}",
    "b_with_both": "zarówno z {a:i}, jak i z {b:i}",
    "b_with_but_not": "z {a:i} (ale bez {b:g})",
    "b_one_not_both": "z {a:i} lub z {b:i} (ale nie z oboma)",
    "b_with_only": "tylko z {what}",
    "b_and_or": "i/lub",
    "b_except": " oprócz {who:g}",
    "b_all_self_even": "wartość podstawowa każdej twojej karty jest liczbą parzystą",
    "b_all_self_odd": "wartość podstawowa każdej twojej karty jest liczbą nieparzystą",
    "b_all_self_max": "wartość podstawowa każdej twojej karty wynosi {n} lub mniej",
    "b_all_self_min": "wartość podstawowa każdej twojej karty wynosi co najmniej {n}",
    "b_all_other_even": "tylko z kartami o parzystej wartości podstawowej",
    "b_all_other_odd": "tylko z kartami o nieparzystej wartości podstawowej",
    "b_all_other_max": "tylko z kartami o wartości podstawowej {n} lub mniej",
    "b_all_other_min": "tylko z kartami o wartości podstawowej co najmniej {n}",
    "b_all_diff_colors": "każda twoja karta ma inny kolor",
    "b_all_diff_initials": "pierwsze litery nazw twoich kart (angielskich, jak na nadruku) są różne",
    "b_sovereign": "znacznik Suwerena",
    "b_sovereign_gen": "znacznika Suwerena",
    "b_have": "masz {what}",
    "b_have_none1": "nie masz {what}",
    "b_have_none": "nie masz ani {what}",
    "b_have_none_join": ", ani ",
    "b_most_fleet": "jesteś najdalej na torze Floty (lub remisujesz o pierwsze miejsce)",
    "b_most_helium": "masz najwięcej Helium (lub remisujesz o pierwsze miejsce)",
    "b_most_influence": "masz najwięcej znaczników Wpływu na Instytucie (lub remisujesz o pierwsze miejsce)",
    "b_least_fleet": "jesteś najbliżej początku toru Floty (lub remisujesz o ostatnie miejsce)",
    "b_least_helium": "masz najmniej Helium (lub remisujesz o ostatnie miejsce)",
    "b_least_influence": "masz najmniej znaczników Wpływu na Instytucie (lub remisujesz o ostatnie miejsce)",
    "b_more_fleet": "którykolwiek przeciwnik jest dalej na torze Floty niż ty",
    "b_more_helium": "którykolwiek przeciwnik ma więcej Helium niż ty",
    "b_more_influence": "którykolwiek przeciwnik ma więcej znaczników Wpływu na Instytucie niż ty",
    "b_same_fleet": "ty i którykolwiek przeciwnik jesteście na tym samym polu toru Floty",
    "b_same_helium": "ty i którykolwiek przeciwnik macie dokładnie tyle samo Helium",
    "b_same_influence": "ty i którykolwiek przeciwnik macie dokładnie tyle samo znaczników Wpływu na Instytucie",
    "b_range_at_least": "co najmniej {lo}",
    "b_range_or_fewer": "{hi} lub mniej",
    "b_range_exactly": "dokładnie {lo}",
    "b_range_or": "{lo} lub {hi}",
    "b_range": "{lo}–{hi}",
    "b_amount_fleet": "twoja pozycja na torze Floty to {range}",
    "b_amount_helium": "masz {range} {noun}",
    "b_amount_influence": "masz {range} {noun} na Instytucie",
    "b_have_range": "masz {range} {noun}",
    "b_banished_range_sel": "jest {range} {noun}",
    "b_banished_range": "na początku punktowania końcowego jest {range} {noun}",
    "b_hand_range": "masz {range} {noun} (wliczając {me:a})",
    "b_empty_or_facedown": "jest co najmniej 1 lokacja bez kart lub z zakrytą wierzchnią kartą",
    "b_leads": ("masz ", "z "),
    "b_each_names": "za każdą z postaci: {names}",
    "b_each_incl": "za {what:a} (wliczając {me:a})",
    "b_each_sel": "za {what:a}",
    "b_each_on_locations": "za {what:a} na wszystkich lokacjach",
    "b_each_banished_card": "za każdą odrzuconą kartę",
    "b_each_distinct": "za każdy różny kolor",
    "b_each_card": "za każdą swoją kartę",
    "b_each_helium": "za każdy swój znacznik Helium",
    "b_each_influence": "za każdy swój znacznik Wpływu na Instytucie",
    "b_gain_fleet": "zyskaj tyle punktów, ile wynosi twoja pozycja na torze Floty (0–10)",
    "b_gain_top": "zyskaj tyle punktów, ile wynosi wartość podstawowa wierzchniej karty dowolnej lokacji",
    "b_ignore": "ignoruj punkty utracone przez {what:ap}",
}

LANG = Lang(
    code="pl",
    P=P,
    card=CARD,
    helium=NP([TOKEN], [], "Helium", "lub", "pl"),
    influence=NP([TOKEN], [], "Wpływu", "lub", "pl"),
    step=Noun("pole|pola|polu|pole|polem|polu", "pola|pól|polom|pola|polami|polach", "n"),
    point=Noun("punkt|punktu|punktowi|punkt|punktem|punkcie", "punkty|punktów|punktom|punkty|punktami|punktach", "m"),
    colour_word=Noun(
        "kolor|koloru|kolorowi|kolor|kolorem|kolorze", "kolory|kolorów|kolorom|kolory|kolorami|kolorach", "m"
    ),
    colours=tuple(Subst(Adj(s, k, v)) for s, k, v in _COLOURS),
    adj={
        "any": Adj("dowoln", "pl", "dowolni"),
        "other": Adj("inn", "pl", "inni"),
        "each": Adj("każd", "pl", "każdzi"),
        "banished": Adj("odrzucon", "pl", "odrzuceni"),
        "top": Adj("wierzchn", "pl_soft"),
        "bottom": Adj("najniższ", "pl", "najniżsi"),
        "topmost": Adj("najwyższ", "pl", "najwyżsi"),
        "random": Adj("losow", "pl", "losowi"),
        "all": Adj("wszystk", "pl_ki", "wszyscy"),
    },
    locs={
        "name": ("Jowisz", "Mars", "Luna", "Instytut"),
        "to": ("na Jowisza", "na Marsa", "na Lunę", "na Instytut"),
        "in": ("na Jowiszu", "na Marsie", "na Lunie", "na Instytucie"),
        "from": ("z Jowisza", "z Marsa", "z Luni", "z Instytutu"),
        "of": ("Jowisza", "Marsa", "Luni", "Instytutu"),
    },
    pron_acc={"m": "go", "f": "ją", "n": "je", "p": "je"},
    that_card=Noun("tamta karta|tamtej karty|tamtej karcie|tamtą kartę|tamtą kartą|tamtej karcie"),
    revealed_card=Noun(
        "odsłonięta karta|odsłoniętej karty|odsłoniętej karcie|odsłoniętą kartę|odsłoniętą kartą|odsłoniętej karcie"
    ),
    this_card=re.compile(r"(?<!\w)(ta karta|tej karty|tej karcie|tę kartę|tą kartą)(?!\w)"),
    OR="lub",
    AND="i",
)
