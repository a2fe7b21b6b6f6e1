"""Table chat (issue 22, UTH-33): the rules a chat line must meet (:mod:`games.chat.rules`, pure), the per-player rate
limit and moderation warnings kept in Redis (:mod:`games.chat.limits`), the staff and automated mutes and the cash and
tournament tables' chat service (:mod:`games.chat.services`). Ultimate Texas Hold'em's chat service is
:mod:`games.uth.services.chat`; both share everything here."""
