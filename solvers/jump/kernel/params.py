"""The walk's parameters, grouped (:func:`~powertwo.solvers.jump.kernel.walk._run`): named tuples, which
numba passes as plain structs (a field read compiles to a register read, no cost at run time)."""

from __future__ import annotations

from collections import namedtuple

Frames = namedtuple("Frames", ["fu", "fi", "fimg", "fps", "fo", "state", "scratch"])
"""One walk's own arrays: the frame columns of :mod:`.frames` (``fu``, ``fi``, ``fo``, ``state``), the
stones' images under the symmetries ``fimg[d, s]`` and pagoda sums ``fps[d, t]`` of each frame, and
the parity tests' work space (:mod:`.workspace`)."""

Tables = namedtuple("Tables", ["jstart", "jover", "jto", "jimg", "jpag", "perm", "unj", "regions", "targets",
                               "ends", "pneed", "pbit", "ostart", "ovec"])
"""The board's tables for one search (read only): the jumps of node ``v`` are ``k`` in
``range(jstart[v], jstart[v + 1])`` over ``jover[k]`` onto ``jto[k]``; ``jimg[s, k]``, ``jpag[t, k]``
are jump ``k``'s changes to the image under symmetry ``s`` and the sum under pagoda ``t``; ``perm[s]``
the symmetries; ``unj`` the unjumpable nodes, ``regions`` the Merson regions, ``targets`` the
last-stone nodes; ``ends[b]`` the nodes ``a`` of the triples ``(a, b, c)``; ``pneed[t]``, ``pbit[t]``
pagoda ``t``'s value at its target and the target's bit; ``ostart``, ``ovec`` the lines across each
node (as ``e_a + e_c``)."""

Memo = namedtuple("Memo", ["tk", "td", "dk", "pk", "pd", "stats"])
"""The shared tables: transposition (keys ``tk``, entries ``td``), dead (``dk``), perimeter (``pk``,
``pd``), and the counters ``stats`` (positions, transposition entries, dead entries, positions
refuted by :func:`~.leaves._alone`, by :func:`~.walk._no_movers`)."""

Limits = namedtuple("Limits", ["max_nodes", "grow_tt", "grow_dead", "table_from", "radius", "shortcut_from",
                               "order_moves"])
"""One slice's limits and switches: positions, table entries before a pause to grow them, the least
budget whose states are looked up, the perimeter's radius and the depth from which it answers, the
fresh moves whose movers go by promise."""
