"""The groups of op conformance cases, a module per family of ops (see make_op_cases.py)."""
