"""Tripwire containers (State.arm_hidden): every way CPython can read a container's contents
records a trip, including the C fast paths of built-ins; public facts and writes stay free."""

import collections
import copy
import json
import operator
import pickle

import pytest

from redtable.core import HiddenDict, HiddenList, HiddenRead, HiddenSet, Rng, State


def hl(items=(3, 1, 2), **kw):
    trips: list[str] = []
    return HiddenList.arm(list(items), trips, "deck", **kw), trips


def _star(*args):
    return args


def _unpack(x):
    a, b, c = x
    return a


def _loop(x):
    return [v for v in x]


def _assign_slice(x):
    plain = [0]
    plain[0:0] = x


def _extend(x):
    plain = [0]
    plain.extend(x)


def _iadd(x):
    plain = [0]
    plain += x


LIST_READS = {
    "list()": list,
    "tuple()": tuple,
    "sorted()": sorted,
    "sum()": sum,
    "min()": min,
    "max()": max,
    "any()": any,
    "all()": all,
    "set()": set,
    "frozenset()": frozenset,
    "dict.fromkeys()": dict.fromkeys,
    "enumerate()": lambda x: next(enumerate(x)),
    "zip()": lambda x: next(zip(x)),
    "map()": lambda x: next(map(str, x)),
    "iter()": iter,
    "reversed()": reversed,
    "for": _loop,
    "[*x]": lambda x: [*x],
    "(*x,)": lambda x: (*x,),
    "f(*x)": lambda x: _star(*x),
    "unpacking": _unpack,
    "str.join": lambda x: ",".join(map(str, x)),
    "x[:]": lambda x: x[:],
    "x[1:]": lambda x: x[1:],
    "x[::-1]": lambda x: x[::-1],
    "x[0]": lambda x: x[0],
    "x[-1]": lambda x: x[-1],
    "itemgetter": operator.itemgetter(0),
    "pop()": lambda x: x.pop(),
    "pop(0)": lambda x: x.pop(0),
    "in": lambda x: 1 in x,
    "not in": lambda x: 7 not in x,
    "index": lambda x: x.index(1),
    "count": lambda x: x.count(1),
    "remove": lambda x: x.remove(1),
    "x == list": lambda x: x == [3, 1, 2],
    "list == x": lambda x: [3, 1, 2] == x,
    "x != list": lambda x: x != [],
    "list != x": lambda x: [] != x,
    "x < list": lambda x: x < [9],
    "list < x": lambda x: [0] < x,
    "x + list": lambda x: x + [0],
    "list + x": lambda x: [0] + x,
    "x * 2": lambda x: x * 2,
    "2 * x": lambda x: 2 * x,
    "copy()": lambda x: x.copy(),
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    "pickle": pickle.dumps,
    "json": json.dumps,
    "str()": str,
    "repr()": repr,
    "f-string": lambda x: f"{x}",
    "format": lambda x: format(x, ""),
    "sort()": lambda x: x.sort(),
    "Counter": collections.Counter,
    "Rng.shuffle": lambda x: Rng(1).shuffle(x),
    "list.extend(x)": _extend,
    "plain += x": _iadd,
    "plain[0:0] = x": _assign_slice,
}


@pytest.mark.parametrize("name", sorted(LIST_READS))
def test_every_read_of_a_hidden_list_trips(name):
    x, trips = hl()
    with pytest.raises(HiddenRead):
        LIST_READS[name](x)
    assert len(trips) == 1 and trips[0].startswith("deck: ")


LIST_FREE = {
    "len": len,
    "bool": bool,
    "append": lambda x: x.append(5),
    "insert": lambda x: x.insert(0, 5),
    "extend": lambda x: x.extend([5]),
    "+=": lambda x: operator.iadd(x, [5]),
    "setitem": lambda x: x.__setitem__(0, 9),
    "setslice": lambda x: x.__setitem__(slice(0, 1), [9]),
    "del": lambda x: x.__delitem__(0),
    "clear": lambda x: x.clear(),
    "reverse": lambda x: x.reverse(),
    "*=": lambda x: operator.imul(x, 2),
}


@pytest.mark.parametrize("name", sorted(LIST_FREE))
def test_public_facts_and_writes_are_free(name):
    x, trips = hl()
    LIST_FREE[name](x)
    assert trips == []


def test_visible_items_of_an_ordered_list_are_free():
    # 2 is known (say the revealed top card), 3 and 1 are hidden
    x, trips = hl(hidden=lambda c: c not in (2, 8), unknown=lambda c: c not in (2, 8))
    assert x[-1] == 2 and x.index(2) == 2 and 2 in x and 8 not in x and x.count(8) == 0
    assert x.pop() == 2 and trips == []
    with pytest.raises(HiddenRead):
        x[-1]
    x.append(8)  # a known card put on top
    assert x[-1] == 8 and x[-1:] == [8] and trips == ["deck: item"]


def test_without_hidden_items_everything_is_free():
    x, trips = hl(hidden=lambda c: c > 5, unknown=lambda c: True)
    assert list(x) == [3, 1, 2] and sorted(x) == [1, 2, 3] and 9 not in x and x == [3, 1, 2] and trips == []
    x.append(7)
    with pytest.raises(HiddenRead):
        sum(x)


def test_unordered_list_reads_by_index_trip_when_anything_is_hidden():
    # a hand: 2 is known to be in it, but not where
    x, trips = hl(hidden=lambda c: c != 2, unknown=lambda c: c != 2, ordered=False)
    assert 2 in x and trips == []
    x.remove(2)
    with pytest.raises(HiddenRead):
        x[0]
    x2, trips2 = hl(hidden=lambda c: c != 2, unknown=lambda c: c != 2, ordered=False)
    with pytest.raises(HiddenRead):
        x2.index(2)


def test_comparing_two_hidden_lists_trips_on_either():
    a, ta = hl(hidden=lambda c: False)
    b, tb = hl()
    with pytest.raises(HiddenRead):
        _ = a == b  # the comparison itself reads the hidden order
    assert ta == [] and tb == ["deck: comparison"]


def hd(**kw):
    trips: list[str] = []
    # "a" is known to the player, "b" is not
    return HiddenDict.arm({"a": 1, "b": 2}, trips, "face-down cards", lambda k: k != "a"), trips


def _kwargs(**kw):
    return kw


DICT_READS = {
    "dict()": dict,
    "{**d}": lambda d: {**d},
    "update from": lambda d: {}.update(d),
    "keys": lambda d: d.keys(),
    "values": lambda d: d.values(),
    "items": lambda d: d.items(),
    "list()": list,
    "set()": set,
    "sorted()": sorted,
    "iter": iter,
    "reversed": reversed,
    "json": json.dumps,
    "d == dict": lambda d: d == {},
    "dict == d": lambda d: {} == d,
    "d != dict": lambda d: d != {},
    "d | dict": lambda d: d | {},
    "dict | d": lambda d: {} | d,
    "copy()": lambda d: d.copy(),
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    "pickle": pickle.dumps,
    "repr": repr,
    "str": str,
    "f-string": lambda d: f"{d}",
    "popitem": lambda d: d.popitem(),
    "in (unknown)": lambda d: "b" in d,
    "in (unknown, absent)": lambda d: "z" in d,
    "get (unknown)": lambda d: d.get("b"),
    "[] (unknown)": lambda d: d["b"],
    "pop (unknown)": lambda d: d.pop("z", None),
    "del (unknown)": lambda d: d.__delitem__("b"),
    "setdefault (unknown)": lambda d: d.setdefault("z", 0),
    "f(**d)": lambda d: _kwargs(**d),
    "Counter": collections.Counter,
}


@pytest.mark.parametrize("name", sorted(DICT_READS))
def test_every_read_of_a_hidden_dict_trips(name):
    d, trips = hd()
    with pytest.raises(HiddenRead):
        DICT_READS[name](d)
    assert len(trips) == 1


def test_hidden_dict_known_keys_and_writes_are_free():
    d, trips = hd()
    assert "a" in d and d["a"] == 1 and d.get("a") == 1 and len(d) == 2 and d
    d["c"] = 3
    d.update({"d": 4})
    assert d.pop("a") == 1 and trips == []


SET_READS = {
    "in": lambda s: 1 in s,
    "len": len,
    "bool": bool,
    "iter": iter,
    "set()": set,
    "frozenset()": frozenset,
    "sorted()": sorted,
    "plain | s": lambda s: {1} | s,
    "s | plain": lambda s: s | {1},
    "plain - s": lambda s: {1} - s,
    "plain & s": lambda s: {1} & s,
    "plain ^ s": lambda s: {1} ^ s,
    "plain.update(s)": lambda s: {1}.update(s),
    "plain.difference(s)": lambda s: {1}.difference(s),
    "plain.issubset(s)": lambda s: {1}.issubset(s),
    "plain == s": lambda s: {1} == s,
    "s.isdisjoint": lambda s: s.isdisjoint({1}),
    "s.copy": lambda s: s.copy(),
    "copy.copy": copy.copy,
    "pickle": pickle.dumps,
    "repr": repr,
    "s.remove": lambda s: s.remove(1),
}


@pytest.mark.parametrize("name", sorted(SET_READS))
def test_every_read_of_a_hidden_set_trips(name):
    trips: list[str] = []
    s = HiddenSet({1, 2}, trips, "what p1 knows")
    with pytest.raises(HiddenRead):
        SET_READS[name](s)
    assert trips and trips[0].startswith("what p1 knows: ")


def test_hidden_set_writes_are_free():
    trips: list[str] = []
    s = HiddenSet({1, 2}, trips, "what p1 knows")
    s.add(3)
    s.discard(1)
    s.update([4, 5])
    s.difference_update([5])
    assert s.data == {2, 3, 4} and trips == []


def test_the_default_state_cannot_arm_itself_and_has_no_idle_window():
    assert State.arm_hidden(object.__new__(_Bare), 0) is None
    assert State.idle_window(object.__new__(_Bare)) is None


class _Bare(State):
    decision = _apply = clone = view = scores = winners = lambda *a: None
