"""analysis/order.py: order_ranks against topological_order."""
from irvalidate.analysis.order import topological_order


def test_order_ranks_is_topological_order():
    """order_ranks (a streamed reshapeable's order of the whole run) places every layer of
    every sample and corpus file where topological_order does, layers left over included."""
    from irvalidate.analysis.order import order_ranks
    from irvalidate.ir.reader import parse
    from support.places import CORPUS_FILES, SAMPLES
    compared = 0
    for path in SAMPLES + CORPUS_FILES:
        doc = parse(str(path))
        ids = [layer.id for layer in doc.graph.layers]
        if doc.fatal or not all(i.isdigit() for i in ids) or len(set(ids)) != len(ids):
            continue
        edges = [e for e in doc.graph.edges if e.from_layer in ids and e.to_layer in ids]
        order, _ = topological_order(ids, [(e.from_layer, e.to_layer) for e in edges])
        sources, targets = [int(e.from_layer) for e in edges], [int(e.to_layer) for e in edges]
        ranks = order_ranks([int(i) for i in ids], sources, targets)
        expected = [order.index(i) if i in order else -1 for i in ids]
        assert [ranks[int(i)] for i in ids] == expected, path
        # (the streamed run hands it only the layers no edge enters, where the order starts)
        entered = set(targets)
        roots = order_ranks([int(i) for i in ids if int(i) not in entered], sources, targets)
        assert [roots[int(i)] if int(i) < len(roots) else -1 for i in ids] == expected, path
        compared += 1
    assert compared >= 60, compared
