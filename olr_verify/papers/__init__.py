"""The five seed papers, one folder each (``paper.toml`` + the Python checks of the claims that are not data).

Folders: ``s000_aioli``, ``s001_gaf``, ``s002_scale_invariant``, ``s003_hkl``, ``s004_ekf`` (keys ``000`` ...
``004``). :mod:`olr_verify.registry` reads them with the same loader as ``olr-verify run --paper DIR``.
"""
