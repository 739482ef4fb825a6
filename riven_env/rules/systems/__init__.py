"""Resolution systems other than RIVEN's own, each a :class:`ResolutionSystem` in a module.

A module here registers itself with :func:`riven_env.rules.resolution.register_resolution`
when imported; :mod:`riven_env.rules.resolution` imports the bundled ones.
"""
