"""Arrays without reference counting, for the hottest Numba loops.

Every view a compiled loop takes of a NumPy array (``after[c]``, an array
passed on to a helper) adds to and takes from the array's reference count
with an atomic instruction. In the candidate loop of
:func:`gammon.engine.network.candidates_into` those counts took about a
quarter of the time of a turn's evaluation (sampled with ``perf``). A
*borrowed* array is the same array with no owner: its views and the
helpers it is passed to skip the counting. It is only valid while the
array it borrows from is alive, so borrow the arguments of a kernel
(which its caller holds until it returns), never an array the kernel
itself allocates and drops.
"""

from __future__ import annotations

from numba.core import cgutils, types
from numba.extending import intrinsic


@intrinsic
def borrowed(typingctx, value):
    """``value`` (an array, or a tuple of arrays and scalars, in a Numba function) with no owner: views of its
    arrays, and the calls it is passed to, are not reference counted."""
    if isinstance(value, types.Array):
        kinds = None
    elif isinstance(value, types.BaseTuple) and any(isinstance(t, types.Array) for t in value.types):
        kinds = list(value.types)
    else:
        return None

    def borrow(context, builder, array_type, array):
        source = context.make_array(array_type)(context, builder, value=array)
        view = context.make_array(array_type)(context, builder)
        for field in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, field, getattr(source, field))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    def codegen(context, builder, signature, args):
        if kinds is None:
            return borrow(context, builder, value, args[0])
        items = [borrow(context, builder, t, builder.extract_value(args[0], i)) if isinstance(t, types.Array)
                 else builder.extract_value(args[0], i) for i, t in enumerate(kinds)]
        return context.make_tuple(builder, value, items)

    return value(value), codegen
