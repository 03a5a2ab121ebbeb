"""Op conformance cases: TensorLists, layout ops, TopK, Unique variants and the MatrixDiag family."""

from op_case_lib import *  # noqa: F401,F403


LIST_DTYPES = ["float32", "float64", "float16", "int32", "int64", "int8", "uint8", "bool",
               "string", "complex64"]


@group
def tensor_list(g):
    def shape_of(s):
        return g.const(s, "int32") if s is not None else g.const(-1, "int32")
    for dt in LIST_DTYPES:
        def from_tensor():
            x = g.rand(dt, [3, 2])
            h = raw.TensorListFromTensor(tensor=x, element_shape=shape_of([2]), name="op")
            return [raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                        element_dtype=dt, name="stack"),
                    raw.TensorListGetItem(input_handle=h, index=g.const(1, "int32"),
                                          element_shape=shape_of([2]), element_dtype=dt,
                                          name="get"),
                    raw.TensorListGather(input_handle=h, indices=g.const([2, 0], "int32"),
                                         element_shape=shape_of([2]), element_dtype=dt,
                                         name="gather"),
                    raw.TensorListLength(input_handle=h, name="length")]
        g.case(f"TensorListFromTensor.{sgname(dt)}.read", from_tensor)
        def push_pop():
            h = raw.EmptyTensorList(element_shape=shape_of([2]),
                                    max_num_elements=g.const(-1, "int32"), element_dtype=dt,
                                    name="op")
            for i in range(3):
                h = raw.TensorListPushBack(input_handle=h, tensor=g.rand(dt, [2]),
                                           name=f"push{i}")
            h2, last = raw.TensorListPopBack(input_handle=h, element_shape=shape_of([2]),
                                             element_dtype=dt, name="pop")
            return [last, raw.TensorListStack(input_handle=h2, element_shape=shape_of([2]),
                                              element_dtype=dt, name="stack")]
        g.case(f"EmptyTensorList.{sgname(dt)}.push_pop", push_pop)
        def reserve_set():
            h = raw.TensorListReserve(element_shape=shape_of([2]),
                                      num_elements=g.const(3, "int32"), element_dtype=dt,
                                      name="op")
            h = raw.TensorListSetItem(input_handle=h, index=g.const(2, "int32"),
                                      item=g.rand(dt, [2]), name="set2")
            h = raw.TensorListSetItem(input_handle=h, index=g.const(0, "int32"),
                                      item=g.rand(dt, [2]), name="set0")
            h = raw.TensorListSetItem(input_handle=h, index=g.const(1, "int32"),
                                      item=g.rand(dt, [2]), name="set1")
            return raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                       element_dtype=dt, name="stack")
        g.case(f"TensorListReserve.{sgname(dt)}.set_all", reserve_set)
        def scatter_concat():
            h = raw.TensorListScatter(tensor=g.rand(dt, [3, 2]), indices=g.const([2, 0, 1],
                                                                                  "int32"),
                                      element_shape=shape_of([2]), name="op")
            value, lengths = raw.TensorListConcat(input_handle=h, element_dtype=dt,
                                                  element_shape=[2], name="concat")
            return [value, lengths]
        g.case(f"TensorListScatter.{sgname(dt)}.concat", scatter_concat)
    def split_concat():
        h = raw.TensorListSplit(tensor=g.rand("float32", [5, 2]), element_shape=shape_of([-1, 2]),
                                lengths=g.const([2, 0, 3], "int64"), name="op")
        value, lengths = raw.TensorListConcatV2(
            input_handle=h, element_shape=shape_of([-1, 2]), leading_dims=g.const([], "int64"),
            element_dtype="float32", name="concat")
        return [value, lengths, raw.TensorListGetItem(
            input_handle=h, index=g.const(2, "int32"), element_shape=shape_of([-1, 2]),
            element_dtype="float32", name="get")]
    g.case("TensorListSplit.float.concat_v2", split_concat)
    def scatter_v2():
        h = raw.TensorListScatterV2(tensor=g.rand("int32", [2, 3]),
                                    indices=g.const([3, 1], "int32"),
                                    element_shape=shape_of([3]),
                                    num_elements=g.const(5, "int32"), name="op")
        return [raw.TensorListLength(input_handle=h, name="length"),
                raw.TensorListGetItem(input_handle=h, index=g.const(3, "int32"),
                                      element_shape=shape_of([3]), element_dtype="int32",
                                      name="get3"),
                # An element never set reads as zeros of the element shape.
                raw.TensorListGetItem(input_handle=h, index=g.const(0, "int32"),
                                      element_shape=shape_of([3]), element_dtype="int32",
                                      name="get0")]
    g.case("TensorListScatterV2.int32.sparse", scatter_v2)
    def scatter_existing():
        h = raw.TensorListFromTensor(tensor=g.rand("float32", [4, 2]),
                                     element_shape=shape_of([2]), name="list")
        h = raw.TensorListScatterIntoExistingList(input_handle=h, tensor=g.rand("float32",
                                                                                 [2, 2]),
                                                  indices=g.const([3, 0], "int32"), name="op")
        return raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                   element_dtype="float32", name="stack")
    g.case("TensorListScatterIntoExistingList.float.two", scatter_existing)
    def resize(size):
        h = raw.TensorListFromTensor(tensor=g.rand("float32", [3, 2]),
                                     element_shape=shape_of([2]), name="list")
        h = raw.TensorListResize(input_handle=h, size=g.const(size, "int32"), name="op")
        return [raw.TensorListLength(input_handle=h, name="length"),
                raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                    element_dtype="float32", name="stack")]
    g.case("TensorListResize.float.grow", lambda: resize(5))
    g.case("TensorListResize.float.shrink", lambda: resize(1))
    def element_shape(shape, st):
        h = raw.EmptyTensorList(element_shape=g.const(shape, "int32"),
                                max_num_elements=g.const(-1, "int32"), element_dtype="float32",
                                name="list")
        return raw.TensorListElementShape(input_handle=h, shape_type=st, name="op")
    g.case("TensorListElementShape.int32.known", lambda: element_shape([2, 3], "int32"))
    g.case("TensorListElementShape.int64.partial", lambda: element_shape([-1, 3], "int64"))
    g.case("TensorListElementShape.int32.unknown_rank", lambda: element_shape(-1, "int32"))
    def concat_lists():
        a = raw.TensorListFromTensor(tensor=g.rand("float32", [2, 2]),
                                     element_shape=shape_of([2]), name="a")
        b = raw.TensorListFromTensor(tensor=g.rand("float32", [1, 2]),
                                     element_shape=shape_of([2]), name="b")
        h = raw.TensorListConcatLists(input_a=a, input_b=b, element_dtype="float32", name="op")
        return raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                   element_dtype="float32", name="stack")
    g.case("TensorListConcatLists.float.two", concat_lists)
    def push_back_batch():
        lists = raw.Pack(values=[raw.TensorListFromTensor(tensor=g.rand("float32", [1, 2]),
                                                          element_shape=shape_of([2]),
                                                          name=f"list{i}") for i in range(3)],
                         name="lists")
        h = raw.TensorListPushBackBatch(input_handles=lists, tensor=g.rand("float32", [3, 2]),
                                        name="op")
        return [raw.TensorListStack(input_handle=l, element_shape=shape_of([2]),
                                    element_dtype="float32", name=f"stack{i}")
                for i, l in enumerate(raw.Unpack(value=h, num=3, name="unpack"))]
    g.case("TensorListPushBackBatch.float.three_lists", push_back_batch)
    def get_out_of_range():
        h = raw.TensorListFromTensor(tensor=g.rand("float32", [2, 2]),
                                     element_shape=shape_of([2]), name="list")
        return raw.TensorListGetItem(input_handle=h, index=g.const(2, "int32"),
                                     element_shape=shape_of([2]), element_dtype="float32",
                                     name="op")
    g.case("TensorListGetItem.float.out_of_range", get_out_of_range, error=True)
    def pop_empty():
        h = raw.EmptyTensorList(element_shape=shape_of([2]),
                                max_num_elements=g.const(-1, "int32"), element_dtype="float32",
                                name="list")
        return list(raw.TensorListPopBack(input_handle=h, element_shape=shape_of([2]),
                                          element_dtype="float32", name="op"))[1]
    g.case("TensorListPopBack.float.empty", pop_empty, error=True)
    def while_v2_list():
        h0 = raw.TensorListReserve(element_shape=shape_of([2]), num_elements=g.const(4, "int32"),
                                   element_dtype="float32", name="reserve")
        i32 = tf.TensorSpec([], tf.int32)
        v = tf.TensorSpec([], tf.variant)
        cond = concrete(lambda i, l: raw.Less(x=i, y=tf.constant(4)), i32, v)
        body = concrete(lambda i, l: (
            raw.AddV2(x=i, y=tf.constant(1)),
            raw.TensorListSetItem(input_handle=l, index=i,
                                  item=raw.Fill(dims=tf.constant([2]),
                                                value=raw.Cast(x=i, DstT="float32")))), i32, v)
        _, h = raw.While(input=[g.const(0, "int32"), h0], cond=cond, body=body, name="op")
        return raw.TensorListStack(input_handle=h, element_shape=shape_of([2]),
                                   element_dtype="float32", name="stack")
    g.case("While.float.tensor_list", while_v2_list)


@group
def array_layout(g):
    for op in ("SpaceToDepth", "DepthToSpace"):
        f = op_fn(op)
        base = [1, 4, 6, 3] if op == "SpaceToDepth" else [1, 2, 3, 8]
        for dt in tf_types(op):
            g.case(f"{op}.{sgname(dt)}.block2", lambda: f(input=g.rand(dt, base), block_size=2,
                                                          name="op"))
            if not is_main(dt):
                continue
            for sname, shape, bs in [("block3", [2, 3, 6, 2] if op == "SpaceToDepth"
                                      else [2, 1, 2, 18], 3),
                                     ("empty", [0, 2, 2, 4], 2),
                                     ("one", [1, 2, 2, 4], 2)]:
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: f(input=g.rand(dt, shape), block_size=bs, name="op"))
            # TensorFlow's CPU kernels take NHWC only: NCHW finds no kernel.
            g.case(f"{op}.{sgname(dt)}.nchw",
                   lambda: f(input=g.rand(dt, [1, 8, 4, 4]), block_size=2, data_format="NCHW",
                             name="op"), error=True)
            g.case(f"{op}.{sgname(dt)}.not_divisible",
                   lambda: f(input=hide_shape(g.rand(dt, [1, 3, 3, 3])), block_size=2,
                             name="op"), error=True)
            g.case(f"{op}.{sgname(dt)}.rank3",
                   lambda: f(input=hide_rank(g.rand(dt, [4, 4, 4])), block_size=2, name="op"),
                   error=True)
    for dt in tf_types("SpaceToBatchND"):
        g.case(f"SpaceToBatchND.{sgname(dt)}.block2",
               lambda: raw.SpaceToBatchND(input=g.rand(dt, [2, 4, 4, 1]),
                                          block_shape=g.const([2, 2], "int32"),
                                          paddings=g.const([[0, 0], [0, 0]], "int32"),
                                          name="op"))
        g.case(f"BatchToSpaceND.{sgname(dt)}.block2",
               lambda: raw.BatchToSpaceND(input=g.rand(dt, [8, 2, 2, 1]),
                                          block_shape=g.const([2, 2], "int32"),
                                          crops=g.const([[0, 0], [0, 0]], "int32"), name="op"))
        g.case(f"SpaceToBatch.{sgname(dt)}.pad",
               lambda: raw.SpaceToBatch(input=g.rand(dt, [1, 3, 4, 2]),
                                        paddings=g.const([[1, 0], [0, 2]], "int32"),
                                        block_size=2, name="op"))
        g.case(f"BatchToSpace.{sgname(dt)}.crop",
               lambda: raw.BatchToSpace(input=g.rand(dt, [4, 2, 3, 2]),
                                        crops=g.const([[1, 0], [0, 2]], "int32"),
                                        block_size=2, name="op"))
        if not is_main(dt):
            continue
        # input shape, block_shape, paddings (crops), index types
        for sname, shape, block, pads, bt, pt in [
                ("pad", [1, 3, 5, 2], [2, 3], [[1, 0], [2, 2]], "int32", "int64"),
                ("one_dim", [2, 5, 3], [3], [[1, 0]], "int64", "int32"),
                ("three_dims", [1, 2, 4, 2, 2], [2, 2, 1], [[0, 0], [0, 2], [1, 1]], "int64",
                 "int64"),
                ("no_block", [2, 3], np.zeros([0], np.int32), np.zeros([0, 2], np.int32),
                 "int32", "int32"),
                ("empty", [0, 4, 2], [2], [[0, 0]], "int32", "int32"),
                ("block1", [2, 3, 2], [1, 1], [[1, 1], [0, 1]], "int32", "int32")]:
            g.case(f"SpaceToBatchND.{sgname(dt)}.{sname}",
                   lambda: raw.SpaceToBatchND(input=g.rand(dt, shape),
                                              block_shape=g.const(block, bt),
                                              paddings=g.const(pads, pt), name="op"))
        for sname, shape, block, crops, bt, ct in [
                ("crop", [6, 2, 2, 2], [2, 3], [[1, 0], [2, 2]], "int32", "int64"),
                ("one_dim", [6, 2, 3], [3], [[1, 2]], "int64", "int32"),
                ("three_dims", [8, 1, 3, 2, 2], [2, 2, 2], [[0, 0], [0, 2], [1, 1]], "int64",
                 "int64"),
                ("no_block", [2, 3], np.zeros([0], np.int32), np.zeros([0, 2], np.int32),
                 "int32", "int32"),
                ("empty", [0, 4, 2], [2], [[0, 0]], "int32", "int32"),
                ("crop_all", [4, 1, 2], [2, 2], [[2, 0], [1, 1]], "int32", "int32")]:
            g.case(f"BatchToSpaceND.{sgname(dt)}.{sname}",
                   lambda: raw.BatchToSpaceND(input=g.rand(dt, shape),
                                              block_shape=g.const(block, bt),
                                              crops=g.const(crops, ct), name="op"))
        g.case(f"SpaceToBatch.{sgname(dt)}.int64_block3",
               lambda: raw.SpaceToBatch(input=g.rand(dt, [2, 3, 6, 1]),
                                        paddings=g.const([[0, 0], [0, 0]], "int64"),
                                        block_size=3, name="op"))
        g.case(f"BatchToSpace.{sgname(dt)}.int64_block3",
               lambda: raw.BatchToSpace(input=g.rand(dt, [9, 1, 2, 1]),
                                        crops=g.const([[0, 1], [2, 0]], "int64"),
                                        block_size=3, name="op"))
        g.case(f"SpaceToBatchND.{sgname(dt)}.not_divisible",
               lambda: raw.SpaceToBatchND(input=hide_shape(g.rand(dt, [1, 3, 4])),
                                          block_shape=g.const([2], "int32"),
                                          paddings=hide_shape(g.const([[0, 0]], "int32")),
                                          name="op"), error=True)
        g.case(f"SpaceToBatchND.{sgname(dt)}.negative_pad",
               lambda: raw.SpaceToBatchND(input=hide_shape(g.rand(dt, [1, 4, 4])),
                                          block_shape=g.const([2], "int32"),
                                          paddings=hide_shape(g.const([[-2, 0]], "int32")),
                                          name="op"), error=True)
        def zero_block():
            block = tf.compat.v1.placeholder("int32", [1], name="block")
            g.feed(block, np.array([0], np.int32))  # a constant 0 fails in the shape function
            return raw.SpaceToBatchND(input=hide_shape(g.rand(dt, [1, 4, 4])), block_shape=block,
                                      paddings=hide_shape(g.const([[0, 0]], "int32")), name="op")
        g.case(f"SpaceToBatchND.{sgname(dt)}.zero_block", zero_block, error=True)
        g.case(f"SpaceToBatchND.{sgname(dt)}.rank_too_small",
               lambda: raw.SpaceToBatchND(input=hide_rank(g.rand(dt, [4, 4])),
                                          block_shape=g.const([2, 2], "int32"),
                                          paddings=g.const([[0, 0], [0, 0]], "int32"),
                                          name="op"), error=True)
        g.case(f"BatchToSpaceND.{sgname(dt)}.batch_not_divisible",
               lambda: raw.BatchToSpaceND(input=hide_shape(g.rand(dt, [3, 2, 2])),
                                          block_shape=g.const([2], "int32"),
                                          crops=hide_shape(g.const([[0, 0]], "int32")),
                                          name="op"), error=True)
        g.case(f"BatchToSpaceND.{sgname(dt)}.crop_too_big",
               lambda: raw.BatchToSpaceND(input=hide_shape(g.rand(dt, [2, 2, 2])),
                                          block_shape=g.const([2], "int32"),
                                          crops=hide_shape(g.const([[3, 2]], "int32")),
                                          name="op"), error=True)
        g.case(f"SpaceToBatchND.{sgname(dt)}.huge_padding",
               lambda: raw.SpaceToBatchND(input=hide_shape(g.rand(dt, [1, 4, 4])),
                                          block_shape=g.const([2], "int64"),
                                          paddings=hide_shape(g.const([[2**62, 0]], "int64")),
                                          name="op"), error=True)
        g.case(f"BatchToSpaceND.{sgname(dt)}.huge_block",
               lambda: raw.BatchToSpaceND(input=hide_shape(g.rand(dt, [2, 4, 4])),
                                          block_shape=g.const([2**40], "int64"),
                                          crops=hide_shape(g.const([[0, 0]], "int64")),
                                          name="op"), error=True)
        g.case(f"SpaceToBatch.{sgname(dt)}.rank3",
               lambda: raw.SpaceToBatch(input=hide_rank(g.rand(dt, [2, 2, 2])),
                                        paddings=g.const([[0, 0], [0, 0]], "int32"),
                                        block_size=2, name="op"), error=True)


def topk_v1(k):
    """Makes the stored TopKV2 node `op` a TopK with attr k: TensorFlow 2.21's CPU kernel of
    TopK asks for an index_type attr TopK does not have, so TensorFlow runs TopKV2 instead."""
    def edit(gdef, case):
        for n in gdef.node:
            if n.name == f"{case}/op":
                n.op = "TopK"
                del n.input[1]
                del n.attr["Tk"]
                del n.attr["index_type"]
                n.attr["k"].i = k
    return edit


@group
def array_topk(g):
    for dt in tf_types("TopKV2"):
        for kt in ("int32",) if not is_main(dt) else ("int32", "int64", "int16"):
            g.case(f"TopKV2.{sgname(dt)}.mat_k{kt}",
                   lambda: list(raw.TopKV2(input=g.rand(dt, [3, 7], lo=-3, hi=3),
                                           k=g.const(3, kt), name="op")))
        g.case(f"TopKV2.{sgname(dt)}.idx64",
               lambda: list(raw.TopKV2(input=g.rand(dt, [5], lo=-2, hi=2), k=g.const(5, "int32"),
                                       index_type="int64", name="op")))
        g.case(f"TopKV2.{sgname(dt)}.idx16",
               lambda: list(raw.TopKV2(input=g.rand(dt, [2, 4], lo=-2, hi=2),
                                       k=g.const(2, "int32"), index_type="int16", name="op")))
        g.case(f"TopK.{sgname(dt)}.mat",
               lambda: list(raw.TopKV2(input=g.rand(dt, [2, 6], lo=-3, hi=3),
                                       k=g.const(4, "int32"), name="op")), edit=topk_v1(4))
        s = special_values(dt)
        if is_float(dt):
            s = s[~np.isnan(s.astype(np.float64))]  # NaN has no place in TensorFlow's order
        g.case(f"TopKV2.{sgname(dt)}.special",
               lambda: list(raw.TopKV2(input=g.const(s, dt), k=g.const(len(s), "int32"),
                                       name="op")))
        if not is_main(dt):
            continue
        for sname, shape, k in [("k1", [4, 9], 1), ("k0", [2, 3], 0), ("all", [2, 3, 5], 5),
                                ("vec", [67], 10), ("empty_rows", [0, 4], 2),
                                ("ties", [2, 40], 7)]:
            lo, hi = (-1, 1) if sname in ("ties", "k1") else (-4, 4)
            g.case(f"TopKV2.{sgname(dt)}.{sname}",
                   lambda: list(raw.TopKV2(input=g.rand(dt, shape, lo=lo, hi=hi),
                                           k=g.const(k, "int32"), name="op")))
        g.case(f"TopK.{sgname(dt)}.ties",
               lambda: list(raw.TopKV2(input=g.rand(dt, [3, 20], lo=-1, hi=1),
                                       k=g.const(5, "int32"), name="op")), edit=topk_v1(5))
        # Unsorted: the order is the kernel's own; sorting the result again makes it comparable.
        def unsorted():
            x = g.const(np.arange(24).reshape(2, 12) % 7 * 3 - 5 + np.arange(24).reshape(2, 12)
                        / 64, dt) if is_float(dt) else g.const(
                            np.random.default_rng(1).permutation(24).reshape(2, 12), dt)
            v, i = raw.TopKV2(input=x, k=g.const(5, "int32"), sorted=False, name="op")
            sv, _ = raw.TopKV2(input=v, k=g.const(5, "int32"), name="resort_values")
            si, _ = raw.TopKV2(input=raw.Neg(x=i), k=g.const(5, "int32"), name="resort_indices")
            return [sv, si]
        g.case(f"TopKV2.{sgname(dt)}.unsorted", unsorted)
        g.case(f"TopKV2.{sgname(dt)}.k_too_big",
               lambda: raw.TopKV2(input=hide_shape(g.rand(dt, [2, 3])),
                                  k=hide_shape(g.const(4, "int32")), name="op"), error=True)
        g.case(f"TopKV2.{sgname(dt)}.negative_k",
               lambda: raw.TopKV2(input=hide_shape(g.rand(dt, [2, 3])),
                                  k=hide_shape(g.const(-1, "int32")), name="op"), error=True)
        g.case(f"TopKV2.{sgname(dt)}.scalar",
               lambda: raw.TopKV2(input=hide_rank(g.rand(dt, [])),
                                  k=hide_shape(g.const(0, "int32")), name="op"), error=True)
    preds = np.array([[0.5, 2.0, 2.0, -1.0, np.nan], [1.0, 1.0, 1.0, 1.0, 1.0],
                      [np.inf, 3.0, -np.inf, 0.0, 3.0], [0.0, -0.0, 0.25, 0.25, -3.0]])
    for dt in tf_types("InTopKV2"):
        for k in (0, 1, 2, 3, 5, 6):
            g.case(f"InTopKV2.{sgname(dt)}.k{k}",
                   lambda: raw.InTopKV2(predictions=g.const(preds, "float32"),
                                        targets=g.const([1, 3, 4, 0], dt), k=g.const(k, dt),
                                        name="op"))
            g.case(f"InTopK.{sgname(dt)}.k{k}",
                   lambda: raw.InTopK(predictions=g.const(preds, "float32"),
                                      targets=g.const([2, 0, 2, 1], dt), k=k, name="op"))
        g.case(f"InTopKV2.{sgname(dt)}.nan_and_out_of_range",
               lambda: raw.InTopKV2(predictions=g.const(preds, "float32"),
                                    targets=g.const([4, 5, -1, 3], dt), k=g.const(5, dt),
                                    name="op"))
        g.case(f"InTopKV2.{sgname(dt)}.random",
               lambda: raw.InTopKV2(predictions=g.rand("float32", [6, 10]),
                                    targets=g.const([0, 9, 3, 4, 5, 1], dt), k=g.const(3, dt),
                                    name="op"))
        g.case(f"InTopK.{sgname(dt)}.empty",
               lambda: raw.InTopK(predictions=g.rand("float32", [0, 3]),
                                  targets=g.const(np.zeros([0]), dt), k=1, name="op"))
        g.case(f"InTopKV2.{sgname(dt)}.batch_mismatch",
               lambda: raw.InTopKV2(predictions=hide_shape(g.rand("float32", [2, 3])),
                                    targets=hide_shape(g.const([0, 1, 2], dt)),
                                    k=g.const(1, dt), name="op"), error=True)
        g.case(f"InTopKV2.{sgname(dt)}.k_not_scalar",
               lambda: raw.InTopKV2(predictions=g.rand("float32", [2, 3]),
                                    targets=g.const([0, 1], dt),
                                    k=hide_rank(g.const([1], dt)), name="op"), error=True)
        g.case(f"InTopK.{sgname(dt)}.rank1",
               lambda: raw.InTopK(predictions=hide_rank(g.rand("float32", [3])),
                                  targets=g.const([0], dt), k=1, name="op"), error=True)


@group
def array_misc(g):
    for dt in tf_types("ReverseSequence"):
        for lt in ("int64", "int32") if is_main(dt) else ("int64",):
            g.case(f"ReverseSequence.{sgname(dt)}.seq1_{lt}",
                   lambda: raw.ReverseSequence(input=g.rand(dt, [3, 5, 2]),
                                               seq_lengths=g.const([5, 0, 3], lt), seq_dim=1,
                                               name="op"))
        if is_main(dt):
            for sname, shape, lens, sd, bd in [("batch_after", [4, 2, 3], [1, 4, 2], 0, 2),
                                               ("seq_last", [2, 3, 4], [2, 3, 1], 2, 1),
                                               ("vec2", [2, 6], [6, 1], 1, 0),
                                               ("empty", [0, 3], np.zeros([0]), 1, 0),
                                               ("rank4", [2, 2, 3, 2], [3, 2], 2, 0)]:
                g.case(f"ReverseSequence.{sgname(dt)}.{sname}",
                       lambda: raw.ReverseSequence(input=g.rand(dt, shape),
                                                   seq_lengths=g.const(lens, "int64"),
                                                   seq_dim=sd, batch_dim=bd, name="op"))
            g.case(f"ReverseSequence.{sgname(dt)}.too_long",
                   lambda: raw.ReverseSequence(input=g.rand(dt, [2, 3]),
                                               seq_lengths=g.const([4, 1], "int64"), seq_dim=1,
                                               name="op"), error=True)
            g.case(f"ReverseSequence.{sgname(dt)}.negative_length",
                   lambda: raw.ReverseSequence(input=g.rand(dt, [2, 3]),
                                               seq_lengths=g.const([-1, 1], "int32"), seq_dim=1,
                                               name="op"), error=True)
            g.case(f"ReverseSequence.{sgname(dt)}.same_dims",
                   lambda: raw.ReverseSequence(input=hide_rank(g.rand(dt, [2, 3])),
                                               seq_lengths=g.const([1, 1], "int32"), seq_dim=0,
                                               batch_dim=0, name="op"), error=True)
            g.case(f"ReverseSequence.{sgname(dt)}.lengths_mismatch",
                   lambda: raw.ReverseSequence(input=hide_shape(g.rand(dt, [2, 3])),
                                               seq_lengths=hide_shape(g.const([1, 1, 1],
                                                                              "int32")),
                                               seq_dim=1, name="op"), error=True)
    for dt in tf_types("Roll"):
        g.case(f"Roll.{sgname(dt)}.mat",
               lambda: raw.Roll(input=g.rand(dt, [3, 4]), shift=g.const([1, -3], "int32"),
                                axis=g.const([0, 1], "int32"), name="op"))
        if not is_main(dt):
            continue
        for sname, shape, shift, axis, st, at in [
                ("scalar_shift", [5], 2, 0, "int64", "int32"),
                ("big_shift", [2, 3, 4], [7, -10], [2, -3], "int32", "int64"),
                ("repeat_axis", [6], [2, 3], [0, 0], "int64", "int64"),
                ("zero", [3, 3], [0], [1], "int32", "int32"),
                ("empty", [0, 3], [1, 2], [0, 1], "int32", "int32"),
                ("rank4", [2, 3, 2, 3], [1, 1, -1], [0, 3, 1], "int32", "int32"),
                ("no_axes", [2, 3], np.zeros([0]), np.zeros([0]), "int32", "int32")]:
            g.case(f"Roll.{sgname(dt)}.{sname}",
                   lambda: raw.Roll(input=g.rand(dt, shape), shift=g.const(shift, st),
                                    axis=g.const(axis, at), name="op"))
        g.case(f"Roll.{sgname(dt)}.bad_axis",
               lambda: raw.Roll(input=g.rand(dt, [2, 3]), shift=g.const([1], "int32"),
                                axis=hide_shape(g.const([2], "int32")), name="op"), error=True)
        g.case(f"Roll.{sgname(dt)}.size_mismatch",
               lambda: raw.Roll(input=g.rand(dt, [2, 3]), shift=hide_shape(g.const([1, 1],
                                                                                  "int32")),
                                axis=hide_shape(g.const([0], "int32")), name="op"), error=True)
        g.case(f"Roll.{sgname(dt)}.scalar_input",
               lambda: raw.Roll(input=hide_rank(g.rand(dt, [])), shift=g.const(1, "int32"),
                                axis=g.const(0, "int32"), name="op"), error=True)
    for dt in tf_types("Bucketize"):
        g.case(f"Bucketize.{sgname(dt)}.mat",
               lambda: raw.Bucketize(input=g.rand(dt, [3, 4], lo=-5, hi=5),
                                     boundaries=[-3.0, -0.5, 0.0, 1.0, 2.5, 4.0], name="op"))
        g.case(f"Bucketize.{sgname(dt)}.no_boundaries",
               lambda: raw.Bucketize(input=g.rand(dt, [4]), boundaries=[], name="op"))
        g.case(f"Bucketize.{sgname(dt)}.on_boundaries",
               lambda: raw.Bucketize(input=g.const([-1, 0, 1, 2, 3], dt),
                                     boundaries=[0.0, 1.0, 1.0, 2.0], name="op"))
        g.case(f"Bucketize.{sgname(dt)}.special",
               lambda: raw.Bucketize(input=g.const(special_values(dt), dt),
                                     boundaries=[-10.0, -0.5, 0.0, 0.1, 0.5, 16777220.0],
                                     name="op"))
        g.case(f"Bucketize.{sgname(dt)}.float_rounding",
               lambda: raw.Bucketize(input=g.const([16777219, 16777221, 0], dt),
                                     boundaries=[0.1, 16777220.0], name="op"))
        g.case(f"Bucketize.{sgname(dt)}.unsorted",
               lambda: raw.Bucketize(input=g.const([1], dt), boundaries=[2.0, 1.0], name="op"),
               error=True)
    for dt in ("float32", "float64", "float16", "bfloat16"):
        for it in ("int32", "int64"):
            g.case(f"LinSpace.{sgname(dt)}.{it}",
                   lambda: raw.LinSpace(start=g.const(-1.5, dt), stop=g.const(2.25, dt),
                                        num=g.const(7, it), name="op"))
        for sname, a, b, n in [("one", 3.0, 5.0, 1), ("down", 10.0, -2.0, 5),
                               ("same", 1.0, 1.0, 3), ("many", 0.0, 1.0, 1001)]:
            g.case(f"LinSpace.{sgname(dt)}.{sname}",
                   lambda: raw.LinSpace(start=g.const(a, dt), stop=g.const(b, dt),
                                        num=g.const(n, "int32"), name="op"))
        g.case(f"LinSpace.{sgname(dt)}.zero_num",
               lambda: raw.LinSpace(start=g.const(1.0, dt), stop=g.const(2.0, dt),
                                    num=hide_shape(g.const(0, "int32")), name="op"), error=True)
    for dt in tf_types("BroadcastArgs"):
        for sname, a, b in [("bcast", [2, 1, 3], [4, 1]), ("zero", [2, 0, 3], [1, 3]),
                            ("empty", np.zeros([0]), [3, 2]), ("both_empty", np.zeros([0]),
                                                                 np.zeros([0])),
                            ("same", [5, 4], [5, 4]), ("ones", [1, 1], [1])]:
            g.case(f"BroadcastArgs.{sgname(dt)}.{sname}",
                   lambda: raw.BroadcastArgs(s0=g.const(a, dt), s1=g.const(b, dt), name="op"))
        g.case(f"BroadcastArgs.{sgname(dt)}.incompatible",
               lambda: raw.BroadcastArgs(s0=hide_shape(g.const([2, 3], dt)),
                                         s1=hide_shape(g.const([2], dt)), name="op"),
               error=True)
    for dt in tf_types("ConcatOffset", "shape_type"):
        for sname, axis, shapes in [("axis1", 1, [[2, 3], [2, 5], [2, 0]]),
                                    ("neg_axis", -1, [[2, 3], [2, 5]]),
                                    ("axis0", 0, [[1, 4, 2], [3, 4, 2], [2, 4, 2], [0, 4, 2]]),
                                    ("vec", 0, [[3], [4]])]:
            g.case(f"ConcatOffset.{sgname(dt)}.{sname}",
                   lambda: list(raw.ConcatOffset(concat_dim=g.const(axis, "int32"),
                                                 shape=[g.const(s, dt) for s in shapes],
                                                 name="op")))
        if dt == "int64":  # offsets past int64 wrap around, as TensorFlow's
            g.case("ConcatOffset.int64.huge",
                   lambda: list(raw.ConcatOffset(concat_dim=g.const(0, "int32"),
                                                 shape=[g.const([2**62], dt)] * 3, name="op")))
        g.case(f"ConcatOffset.{sgname(dt)}.bad_axis",
               lambda: list(raw.ConcatOffset(concat_dim=hide_shape(g.const(2, "int32")),
                                             shape=[g.const([2, 3], dt), g.const([2, 5], dt)],
                                             name="op")), error=True)
        g.case(f"ConcatOffset.{sgname(dt)}.mismatch",
               lambda: list(raw.ConcatOffset(concat_dim=g.const(1, "int32"),
                                             shape=[hide_shape(g.const([2, 3], dt)),
                                                    hide_shape(g.const([3, 5], dt))],
                                             name="op")), error=True)
        g.case(f"ConcatOffset.{sgname(dt)}.rank_mismatch",
               lambda: list(raw.ConcatOffset(concat_dim=g.const(0, "int32"),
                                             shape=[hide_shape(g.const([2, 3], dt)),
                                                    hide_shape(g.const([3], dt))],
                                             name="op")), error=True)
    for dt in UNIVERSE:
        g.case(f"Empty.{sgname(dt)}.init",
               lambda: raw.Empty(shape=g.const([2, 3], "int32"), dtype=dt, init=True, name="op"))
        if is_main(dt):
            g.case(f"Empty.{sgname(dt)}.scalar_init",
                   lambda: raw.Empty(shape=g.const(np.zeros([0]), "int32"), dtype=dt, init=True,
                                     name="op"))
            g.case(f"Empty.{sgname(dt)}.no_elements",
                   lambda: raw.Empty(shape=g.const([3, 0, 2], "int32"), dtype=dt, name="op"))
            g.case(f"Empty.{sgname(dt)}.negative",
                   lambda: raw.Empty(shape=hide_shape(g.const([2, -1], "int32")), dtype=dt,
                                     name="op"), error=True)
    for dt in UNIVERSE:
        g.case(f"EnsureShape.{sgname(dt)}.exact",
               lambda: raw.EnsureShape(input=g.rand(dt, [2, 3]), shape=[2, 3], name="op"))
        if is_main(dt):
            for sname, shape, want in [("partial", [2, 3], [None, 3]), ("unknown", [4], None),
                                       ("scalar", [], []), ("empty", [0, 2], [0, None])]:
                g.case(f"EnsureShape.{sgname(dt)}.{sname}",
                       lambda: raw.EnsureShape(input=hide_rank(g.rand(dt, shape)),
                                               shape=tf.TensorShape(want), name="op"))
            g.case(f"EnsureShape.{sgname(dt)}.mismatch",
                   lambda: raw.EnsureShape(input=hide_rank(g.rand(dt, [2, 3])), shape=[3, 2],
                                           name="op"), error=True)
            g.case(f"EnsureShape.{sgname(dt)}.rank_mismatch",
                   lambda: raw.EnsureShape(input=hide_rank(g.rand(dt, [2, 3])), shape=[None],
                                           name="op"), error=True)


@group
def array_unique(g):
    for dt in tf_types("UniqueV2"):
        lo, hi = (-2, 2)
        for oi in ("int32", "int64") if is_main(dt) else ("int32",):
            g.case(f"UniqueV2.{sgname(dt)}.vec_{oi}",
                   lambda: list(raw.UniqueV2(x=g.rand(dt, [9], lo=lo, hi=hi),
                                             axis=g.const([0], "int64"), out_idx=oi,
                                             name="op")))
            g.case(f"UniqueWithCounts.{sgname(dt)}.vec_{oi}",
                   lambda: list(raw.UniqueWithCounts(x=g.rand(dt, [9], lo=lo, hi=hi),
                                                     out_idx=oi, name="op")))
            g.case(f"UniqueWithCountsV2.{sgname(dt)}.vec_{oi}",
                   lambda: list(raw.UniqueWithCountsV2(x=g.rand(dt, [9], lo=lo, hi=hi),
                                                       axis=g.const([-1], "int32"), out_idx=oi,
                                                       name="op")))
            g.case(f"ListDiff.{sgname(dt)}.vec_{oi}",
                   lambda: list(raw.ListDiff(x=g.rand(dt, [9], lo=lo, hi=hi),
                                             y=g.rand(dt, [3], lo=lo, hi=hi), out_idx=oi,
                                             name="op")))
        def rows():
            v = g.vals(dt, [3, 2], lo=-1, hi=1)
            return g.const(np.concatenate([v, v[::-1], v[1:2]], axis=0), dt)
        g.case(f"UniqueV2.{sgname(dt)}.rows",
               lambda: list(raw.UniqueV2(x=rows(), axis=g.const([0], "int64"), name="op")))
        g.case(f"UniqueWithCountsV2.{sgname(dt)}.rows",
               lambda: list(raw.UniqueWithCountsV2(x=rows(), axis=g.const([0], "int32"),
                                                   name="op")))
        if is_float(dt) or is_int(dt):
            s = special_values(dt)
            g.case(f"UniqueWithCounts.{sgname(dt)}.special",
                   lambda: list(raw.UniqueWithCounts(x=g.const(np.concatenate([s, s[::-1]]), dt),
                                                     name="op")))
            g.case(f"ListDiff.{sgname(dt)}.special",
                   lambda: list(raw.ListDiff(x=g.const(np.concatenate([s, s[::-1]]), dt),
                                             y=g.const(s[::3], dt), name="op")))
        if not is_main(dt):
            continue
        for sname, shape, axis in [("cols", [2, 7], 1), ("mid", [2, 5, 2], 1),
                                   ("neg_axis", [3, 4], -2), ("empty_axis", [2, 0], 1),
                                   ("empty_slices", [2, 0], 0), ("scalar_rows", [6], 0)]:
            for op in ("UniqueV2", "UniqueWithCountsV2"):
                g.case(f"{op}.{sgname(dt)}.{sname}",
                       lambda: list(op_fn(op)(x=g.rand(dt, shape, lo=-1, hi=1),
                                              axis=g.const([axis], "int64"), name="op")))
        g.case(f"UniqueV2.{sgname(dt)}.no_axis",
               lambda: list(raw.UniqueV2(x=g.rand(dt, [8], lo=-1, hi=1),
                                         axis=g.const(np.zeros([0]), "int64"), name="op")))
        g.case(f"UniqueV2.{sgname(dt)}.no_axis_matrix",
               lambda: list(raw.UniqueV2(x=hide_rank(g.rand(dt, [2, 2])),
                                         axis=g.const(np.zeros([0]), "int64"), name="op")),
               error=True)
        g.case(f"UniqueV2.{sgname(dt)}.two_axes",
               lambda: list(raw.UniqueV2(x=g.rand(dt, [2, 2]),
                                         axis=hide_rank(g.const([0, 1], "int64")), name="op")),
               error=True)
        g.case(f"UniqueWithCountsV2.{sgname(dt)}.bad_axis",
               lambda: list(raw.UniqueWithCountsV2(x=g.rand(dt, [2, 2]),
                                                   axis=hide_shape(g.const([2], "int64")),
                                                   name="op")),
               error=True)
        g.case(f"UniqueWithCounts.{sgname(dt)}.empty",
               lambda: list(raw.UniqueWithCounts(x=g.rand(dt, [0]), name="op")))
        g.case(f"UniqueWithCounts.{sgname(dt)}.matrix",
               lambda: list(raw.UniqueWithCounts(x=hide_rank(g.rand(dt, [2, 2])), name="op")),
               error=True)
        for sname, xs, ys in [("empty_x", [0], [3]), ("empty_y", [5], [0]), ("all", [4], [9])]:
            g.case(f"ListDiff.{sgname(dt)}.{sname}",
                   lambda: list(raw.ListDiff(x=g.rand(dt, xs, lo=-1, hi=1),
                                             y=g.rand(dt, ys, lo=-1, hi=1), name="op")))
        g.case(f"ListDiff.{sgname(dt)}.matrix",
               lambda: list(raw.ListDiff(x=hide_rank(g.rand(dt, [2, 2])), y=g.rand(dt, [2]),
                                         name="op")), error=True)


@group
def array_matrix_diag(g):
    aligns = ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]
    for dt in tf_types("MatrixDiag"):
        for op, new in (("MatrixDiag", "BatchMatrixDiag"),
                        ("MatrixDiagPart", "BatchMatrixDiagPart"),
                        ("MatrixSetDiag", "BatchMatrixSetDiag")):
            for name in (op, new):
                rename = {"op": new} if name == new else None
                if op == "MatrixDiag":
                    build = lambda: raw.MatrixDiag(diagonal=g.rand(dt, [2, 3]), name="op")
                elif op == "MatrixDiagPart":
                    build = lambda: raw.MatrixDiagPart(input=g.rand(dt, [2, 3, 4]), name="op")
                else:
                    build = lambda: raw.MatrixSetDiag(input=g.rand(dt, [2, 4, 3]),
                                                      diagonal=g.rand(dt, [2, 3]), name="op")
                g.case(f"{name}.{sgname(dt)}.batch", build, rename=rename)
        pad = lambda: g.rand(dt, [])
        g.case(f"MatrixDiagV3.{sgname(dt)}.band",
               lambda: raw.MatrixDiagV3(diagonal=g.rand(dt, [2, 3, 4]),
                                        k=g.const([-1, 1], "int32"),
                                        num_rows=g.const(-1, "int32"),
                                        num_cols=g.const(-1, "int32"), padding_value=pad(),
                                        name="op"))
        g.case(f"MatrixDiagPartV3.{sgname(dt)}.band",
               lambda: raw.MatrixDiagPartV3(input=g.rand(dt, [2, 4, 5]),
                                            k=g.const([-2, 1], "int32"), padding_value=pad(),
                                            name="op"))
        g.case(f"MatrixSetDiagV3.{sgname(dt)}.band",
               lambda: raw.MatrixSetDiagV3(input=g.rand(dt, [2, 4, 5]),
                                           diagonal=g.rand(dt, [2, 4, 4]),
                                           k=g.const([-1, 2], "int32"), name="op"))
        if not is_main(dt):
            continue
        for align in aligns:
            a = align.lower()
            g.case(f"MatrixDiagV3.{sgname(dt)}.{a}",
                   lambda: raw.MatrixDiagV3(diagonal=g.rand(dt, [3, 4]),
                                            k=g.const([-2, 0], "int32"),
                                            num_rows=g.const(-1, "int32"),
                                            num_cols=g.const(5, "int32"), padding_value=pad(),
                                            align=align, name="op"))
            g.case(f"MatrixDiagPartV3.{sgname(dt)}.{a}",
                   lambda: raw.MatrixDiagPartV3(input=g.rand(dt, [3, 5, 4]),
                                                k=g.const([-3, 2], "int32"),
                                                padding_value=pad(), align=align, name="op"))
            g.case(f"MatrixDiagPartV3.{sgname(dt)}.wide_{a}",
                   lambda: raw.MatrixDiagPartV3(input=g.rand(dt, [2, 6]),
                                                k=g.const([1, 4], "int32"),
                                                padding_value=pad(), align=align, name="op"))
            g.case(f"MatrixSetDiagV3.{sgname(dt)}.{a}",
                   lambda: raw.MatrixSetDiagV3(input=g.rand(dt, [5, 4]),
                                               diagonal=g.rand(dt, [4, 4]),
                                               k=g.const([-3, 0], "int32"), align=align,
                                               name="op"))
        g.case(f"MatrixDiagV2.{sgname(dt)}.band",
               lambda: raw.MatrixDiagV2(diagonal=g.rand(dt, [2, 2, 3]),
                                        k=g.const([0, 1], "int32"),
                                        num_rows=g.const(-1, "int32"),
                                        num_cols=g.const(-1, "int32"), padding_value=pad(),
                                        name="op"))
        g.case(f"MatrixDiagPartV2.{sgname(dt)}.band",
               lambda: raw.MatrixDiagPartV2(input=g.rand(dt, [4, 3]), k=g.const([-2, 1], "int32"),
                                            padding_value=pad(), name="op"))
        g.case(f"MatrixSetDiagV2.{sgname(dt)}.band",
               lambda: raw.MatrixSetDiagV2(input=g.rand(dt, [3, 4]), diagonal=g.rand(dt, [2, 3]),
                                           k=g.const([1, 2], "int32"), name="op"))
        for sname, shape, k, rows, cols in [("super", [3], 1, -1, -1),
                                            ("sub_rows", [3], -2, 6, -1),
                                            ("cols", [2, 3], 0, -1, 4),
                                            ("scalar_k", [1, 2], -1, 3, 2),
                                            ("empty", [0, 2], 0, -1, -1)]:
            g.case(f"MatrixDiagV3.{sgname(dt)}.{sname}",
                   lambda: raw.MatrixDiagV3(diagonal=g.rand(dt, shape), k=g.const(k, "int32"),
                                            num_rows=g.const(rows, "int32"),
                                            num_cols=g.const(cols, "int32"), padding_value=pad(),
                                            name="op"))
        for sname, shape, k in [("super", [3, 4], 2), ("sub", [4, 3], -3),
                                ("main_empty", [2, 0, 3], 0), ("rank4", [2, 1, 3, 3], [0, 1])]:
            g.case(f"MatrixDiagPartV3.{sgname(dt)}.{sname}",
                   lambda: raw.MatrixDiagPartV3(input=g.rand(dt, shape), k=g.const(k, "int32"),
                                                padding_value=pad(), name="op"))
        g.case(f"MatrixSetDiagV3.{sgname(dt)}.scalar_k",
               lambda: raw.MatrixSetDiagV3(input=g.rand(dt, [2, 3, 4]),
                                           diagonal=g.rand(dt, [2, 3]), k=g.const(1, "int32"),
                                           name="op"))
        g.case(f"MatrixDiag.{sgname(dt)}.vec",
               lambda: raw.MatrixDiag(diagonal=g.rand(dt, [4]), name="op"))
        g.case(f"MatrixDiagPart.{sgname(dt)}.wide",
               lambda: raw.MatrixDiagPart(input=g.rand(dt, [2, 5]), name="op"))
        g.case(f"MatrixSetDiag.{sgname(dt)}.tall",
               lambda: raw.MatrixSetDiag(input=g.rand(dt, [5, 2]), diagonal=g.rand(dt, [2]),
                                         name="op"))
        g.case(f"MatrixDiagPartV3.{sgname(dt)}.k_reversed",
               lambda: raw.MatrixDiagPartV3(input=g.rand(dt, [3, 3]),
                                            k=hide_shape(g.const([1, -1], "int32")),
                                            padding_value=pad(), name="op"), error=True)
        g.case(f"MatrixDiagPartV3.{sgname(dt)}.k_out_of_bound",
               lambda: raw.MatrixDiagPartV3(input=hide_shape(g.rand(dt, [3, 3])),
                                            k=hide_shape(g.const([3], "int32")),
                                            padding_value=pad(), name="op"), error=True)
        g.case(f"MatrixSetDiagV3.{sgname(dt)}.bad_diagonal",
               lambda: raw.MatrixSetDiagV3(input=hide_shape(g.rand(dt, [3, 4])),
                                           diagonal=hide_shape(g.rand(dt, [4])),
                                           k=g.const(0, "int32"), name="op"), error=True)
        g.case(f"MatrixDiagV3.{sgname(dt)}.inconsistent",
               lambda: raw.MatrixDiagV3(diagonal=hide_shape(g.rand(dt, [3])),
                                        k=g.const(0, "int32"),
                                        num_rows=hide_shape(g.const(5, "int32")),
                                        num_cols=hide_shape(g.const(6, "int32")),
                                        padding_value=pad(), name="op"), error=True)
        g.case(f"MatrixDiagV3.{sgname(dt)}.wrong_num_diags",
               lambda: raw.MatrixDiagV3(diagonal=hide_shape(g.rand(dt, [2, 3])),
                                        k=hide_shape(g.const([0, 2], "int32")),
                                        num_rows=g.const(-1, "int32"),
                                        num_cols=g.const(-1, "int32"),
                                        padding_value=pad(), name="op"), error=True)
        g.case(f"MatrixDiagPart.{sgname(dt)}.vector",
               lambda: raw.MatrixDiagPart(input=hide_rank(g.rand(dt, [3])), name="op"),
               error=True)
    for dt in tf_types("Diag"):
        for sname, shape in [("vec", [3]), ("mat", [2, 2])] + (
                [("rank3", [1, 2, 2]), ("empty", [0])] if is_main(dt) else []):
            g.case(f"Diag.{sgname(dt)}.{sname}",
                   lambda: raw.Diag(diagonal=g.rand(dt, shape), name="op"))
            g.case(f"DiagPart.{sgname(dt)}.{sname}",
                   lambda: raw.DiagPart(input=g.rand(dt, shape + shape), name="op"))
        if is_main(dt):
            g.case(f"DiagPart.{sgname(dt)}.odd_rank",
                   lambda: raw.DiagPart(input=hide_rank(g.rand(dt, [2, 2, 2])), name="op"),
                   error=True)
            g.case(f"DiagPart.{sgname(dt)}.mismatch",
                   lambda: raw.DiagPart(input=hide_shape(g.rand(dt, [2, 3])), name="op"),
                   error=True)
            g.case(f"Diag.{sgname(dt)}.scalar",
                   lambda: raw.Diag(diagonal=hide_rank(g.rand(dt, [])), name="op"), error=True)
