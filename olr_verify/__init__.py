"""olr_verify: is each statement of an online-logistic-regression paper proved, verified, or refuted?

``from olr_verify import prove`` gives the rigorous scalar prover (see ``olr_verify.prover``).
"""
__version__ = "0.1.0"

__all__ = ["prove", "ProofResult", "__version__"]


def __getattr__(name: str):
    if name in ("prove", "ProofResult"):
        from olr_verify import prover

        return getattr(prover, name)
    raise AttributeError(name)
