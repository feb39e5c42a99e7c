"""Literal transcriptions of the algorithm boxes printed in the papers, line by line, as printed.

They are NOT the implementations to use (see :mod:`algorithms`): they exist so that each printed box can be
checked, as a claim, against the definition it is said to compute (``<seed>:algorithm-N``). Where a box
is ambiguous or cannot be executed as printed, the docstring says which reading was taken.
"""
