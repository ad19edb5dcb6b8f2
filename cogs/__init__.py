"""discord.py cogs: thin adapters from interactions to the store, the table service and renders.

Every module is an extension (`async def setup(bot)`) listed in `bot.client.EXTENSIONS`.
Conventions (see `bot.discord_utils`):
- user-facing text comes from the catalogues: `t(key, lang)` with `lang = await lang_for(i)`;
  command descriptions are `cmd_str("commands.x.description")` (translated by the tree's
  `StoppaTranslator`);
- refuse with `raise UserFacingError("area.key", **params)`: the tree answers it ephemerally;
  any other exception is logged with its ids and answered politely by `StoppaTree.on_error`;
- manager commands live in a group with `default_permissions(manage_guild=True)` and check
  `is_manager(interaction)` in code as well;
- a cog may declare persistent components: `dynamic_items = (MyDynamicItem, ...)` and/or
  `def persistent_views(self) -> list[tuple[discord.ui.View, int | None]]`; the bot registers
  them in `setup_hook` after loading every cog;
- custom ids start with `stoppa:`; a click or modal submit that discord.py hands to no component
  (older message version, modal after a restart) goes to the cogs' `async def
  handle_orphan(interaction) -> bool`, else the bot answers "out of date" (never unanswered);
- work that may be slow is deferred first (`interaction.response.defer(...)`), or run inside
  `defer_if_slow(interaction)` when it is usually quick (a store query);
- everything in an interaction is untrusted (issue 25): numbers are read by
  `bot.discord_utils.numbers` (ASCII digits; `NUMBER` in templates, never `\\d`; ids bounded
  by `checked_id` before a look-up); nothing public is said before the checks pass (defer
  privately, answer with `send_public`); a component edits its message only when that
  message `carries` its custom ids, else it answers with a fresh private message. The
  command tree refuses server commands in a DM and options outside their `Range`/choices.
  `tests/fuzz` fuzzes every command and custom id template.
"""
