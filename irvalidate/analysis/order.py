"""Plain graph algorithms over layer ids: order, cycles, reachability.  No recursion, so no
file can exhaust the stack however deep its graph."""
from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Sequence


def topological_order(nodes: Sequence[str], arcs: Iterable[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """(nodes in dependency order, nodes left over because they are on or behind a cycle)."""
    pending = {n: 0 for n in nodes}
    successors: dict[str, list[str]] = defaultdict(list)
    for source, target in arcs:
        pending[target] += 1
        successors[source].append(target)
    ready = deque(n for n in nodes if pending[n] == 0)
    order = []
    while ready:
        node = ready.popleft()
        order.append(node)
        for nxt in successors[node]:
            pending[nxt] -= 1
            if pending[nxt] == 0:
                ready.append(nxt)
    placed = set(order)
    return order, [n for n in nodes if n not in placed]


def find_cycles(leftover: Sequence[str], arcs: Iterable[tuple[str, str]], limit: int = 20) -> list[list[str]]:
    """Distinct cycles among the nodes a topological sort could not place.

    Every leftover node has a leftover predecessor, so walking predecessors from any of them
    must close a loop; we take that loop, remove its nodes, and repeat.
    """
    remaining = set(leftover)
    predecessors: dict[str, list[str]] = defaultdict(list)
    for source, target in arcs:
        if source in remaining and target in remaining:
            predecessors[target].append(source)
    cycles: list[list[str]] = []
    for start in leftover:
        if start not in remaining or len(cycles) >= limit:
            continue
        path: list[str] = []
        index: dict[str, int] = {}
        node = start
        while node in remaining and node not in index and predecessors[node]:
            index[node] = len(path)
            path.append(node)
            node = next((p for p in predecessors[node] if p in remaining), None)  # type: ignore[assignment]  # a leftover has one (docstring)
            if node is None:
                break
        if node is not None and node in index:
            cycle = list(reversed(path[index[node]:]))
            cycles.append(cycle)
            remaining.difference_update(cycle)
    return cycles


def reaching(targets: Iterable[str], arcs: Iterable[tuple[str, str]]) -> set[str]:
    """Every node from which one of ``targets`` can be reached (the targets included)."""
    predecessors: dict[str, list[str]] = defaultdict(list)
    for source, target in arcs:
        predecessors[target].append(source)
    seen = set(targets)
    queue = deque(seen)
    while queue:
        for prev in predecessors[queue.popleft()]:
            if prev not in seen:
                seen.add(prev)
                queue.append(prev)
    return seen


def reader_order(kinds: dict[str, str], producers: dict[str, list[str]]) -> list[str]:
    """The order OpenVINO's IR reader creates a graph's layers in: its Parameters in file
    order, then a depth-first walk from every Result and Assign (in file order) through the
    producers of each layer (in the file order of its edges), each layer after its inputs.
    Layers the walk never reaches are never created.  ``kinds`` maps each id (in file order)
    to its type as written (the reader compares them case-sensitively)."""
    order = [lid for lid, kind in kinds.items() if kind == "Parameter"]
    used = set(order)
    for root in (lid for lid, kind in kinds.items() if kind in ("Result", "Assign")):
        stack = [(root, False)]
        while stack:
            lid, placed = stack.pop()
            if placed:
                order.append(lid)
                continue
            if lid in used:
                continue
            used.add(lid)
            stack.append((lid, True))
            stack.extend((p, False) for p in reversed(producers.get(lid, ())))
    return order
