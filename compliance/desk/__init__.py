"""The reviewers' desk under ``/compliance/`` (Django templates, the site's look, compliance role only) and the
players' report form."""
