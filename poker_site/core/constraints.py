"""Database constraints explained in words on the field they concern (issue 30: never "Constraint … is violated").

A model lists its constraints' words as ``{constraint name: (field, message)}`` and calls
:func:`validate_constraints_in_words` from its ``validate_constraints``: a form then shows the message on that field
(or above the form when the field is not in it), and a service's ``full_clean`` refuses with it. The database keeps
the constraints as they are (no migration): only what people read changes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import router


def validate_constraints_in_words(
    instance: Any, exclude: Collection[str] | None, words: Mapping[str, tuple[str, str]]
) -> None:
    """``Model.validate_constraints`` with each broken constraint named in ``words`` reported as its message on its
    field; a constraint without words keeps Django's own report."""
    errors: dict[str, list[ValidationError]] = {}
    using = router.db_for_write(type(instance), instance=instance)
    for model_class, constraints in instance.get_constraints():
        for constraint in constraints:
            try:
                constraint.validate(model_class, instance, exclude=exclude, using=using)
            except ValidationError as error:
                field, message = words.get(constraint.name, ("", ""))
                if message:
                    key = field if field and not (exclude and field in exclude) else NON_FIELD_ERRORS
                    errors.setdefault(key, []).append(ValidationError(message, code="constraint"))
                elif getattr(error, "code", None) == "unique" and len(getattr(constraint, "fields", ())) == 1:
                    errors.setdefault(constraint.fields[0], []).append(error)
                else:
                    errors.setdefault(NON_FIELD_ERRORS, []).extend(error.error_list)
    if errors:
        raise ValidationError(errors)
