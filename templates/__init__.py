"""Jinja2 templates for gm's mail, shipped as package data so installs find them."""
