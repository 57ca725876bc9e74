"""Small plugin modules the documentation shows; ``tests/test_hooks.py`` runs each one."""
