/* The New table form of /play: every option `cartagena rules` lists, built from the
   host's /play/rules.json (the engine's own presets and options, not a copy), with each
   preset's defaults. Only the options the guest changed are sent: the engine fills the
   rest exactly as for `cartagena host -o KEY=VALUE`, and the host checks them as it
   checks a terminal client's (a refusal comes back as an error and is shown).

   TableForm.setup(rules, form) fills the form; TableForm.options(form) is the options
   map to send (or throws an Error that says what is wrong). */
"use strict";

(() => {
  const { el } = Cartagena;
  const { tr, Names, Options } = Cartagena;
  let rules = { presets: [], options: [] };

  const preset = () => rules.presets.find((p) => p.name === document.getElementById("new-rules").value) || rules.presets[0];

  // The preset's values for the story chosen (a story changes other defaults).
  function defaults() {
    const p = preset();
    if (!p) return {};
    const story = field("story");
    const chosen = story && story.dataset.touched ? story.value : null;
    return (chosen && p.stories && p.stories[chosen]) || p.values || {};
  }

  const field = (name) => document.querySelector(`#option-fields [data-option="${name}"]`);

  function shown(value) {
    if (Array.isArray(value)) return value.join(",");
    return value === undefined || value === null ? "" : value;
  }

  // Untouched fields show the preset's (and story's) values.
  function refill() {
    const values = defaults();
    const p = preset();
    const players = document.getElementById("new-players");
    if (p) {
      players.min = String(p.players[0]);
      players.max = String(p.players[1]);
      if (!players.dataset.touched) players.value = String(values.players || p.players[0]);
    }
    for (const opt of rules.options) {
      const input = field(opt.name);
      if (!input || input.dataset.touched) continue;
      const value = values[opt.name];
      if (opt.type === "bool") input.checked = !!value;
      else input.value = String(shown(value));
    }
    const title = document.getElementById("new-title");
    if (title) title.textContent = p ? `${helpText(p.title)} · ${tr("{n}–{m} players", { n: p.players[0], m: p.players[1] })}` : "";
  }

  function input(opt) {
    const attrs = { id: `option-${opt.name}`, "data-option": opt.name, name: opt.name };
    if (opt.type === "bool") return el("input", { ...attrs, type: "checkbox" });
    if (opt.choices && opt.choices.length) {
      return el("select", attrs, el("option", { value: "" }, tr("(default)")),
        ...opt.choices.map((c) => el("option", { value: c }, Names.choice(opt.name, c))));
    }
    if (opt.type === "int") {
      const a = { ...attrs, type: "number", inputmode: "numeric", step: "1" };
      if (opt.bounds) { a.min = opt.bounds[0]; a.max = opt.bounds[1]; }
      return el("input", a);
    }
    return el("input", { ...attrs, type: "text", maxlength: "64", autocapitalize: "none", spellcheck: "false" });
  }

  // An option's help in the reader's words: the engine's notation in it ("story=whole")
  // said as the option's phrase.
  function helpText(help) {
    return tr(help).replace(/\b([a-z_]+)=([A-Za-z0-9_]+)/g, (all, k, v) => Options.phrase(k, v))
      .replace(/\b([a-z]+_[a-z_]+)\b/g, (all, k) => Options.label(k).toLowerCase());
  }

  function setup(data) {
    rules = { presets: data.presets || [], options: (data.options || []).filter((o) => o.name !== "players") };
    const select = document.getElementById("new-rules");
    select.replaceChildren(...rules.presets.map((p) => el("option", { value: p.name }, Names.preset(p.name))));
    const box = document.getElementById("option-fields");
    box.replaceChildren();
    for (const opt of rules.options) {
      const control = input(opt);
      control.addEventListener("input", () => { control.dataset.touched = "yes"; if (opt.name === "story") refill(); });
      control.addEventListener("change", () => { control.dataset.touched = "yes"; if (opt.name === "story") refill(); });
      const help = helpText(opt.help);
      box.append(el("label", { class: "option", for: control.id, title: help },
        el("span", { class: "option-name" }, Options.label(opt.name)), control, el("span", { class: "option-help" }, help)));
    }
    document.getElementById("new-players").addEventListener("input", (e) => { e.target.dataset.touched = "yes"; });
    select.addEventListener("change", refill);
    refill();
  }

  // Back to the preset's values (after a table is made, or with the Reset button).
  function reset() {
    for (const node of document.querySelectorAll("#new-table [data-touched]")) delete node.dataset.touched;
    refill();
  }

  function options() {
    const out = {};
    const players = document.getElementById("new-players");
    const p = preset();
    const n = Number(players.value);
    if (!/^[0-9]+$/.test(players.value) || (p && (n < p.players[0] || n > p.players[1]))) {
      throw new Error(p ? tr("players: {n} to {m} for {rules}", { n: p.players[0], m: p.players[1], rules: Names.preset(p.name) }) : tr("players: a number for these rules"));
    }
    out.players = n;
    for (const opt of rules.options) {
      const control = field(opt.name);
      if (!control || !control.dataset.touched) continue;
      if (opt.type === "bool") { out[opt.name] = control.checked; continue; }
      const text = control.value.trim();
      if (text === "") continue;  // "(default)" or emptied: the preset's value
      if (opt.type === "int") {
        const v = Number(text);
        if (!/^[0-9]+$/.test(text) || (opt.bounds && (v < opt.bounds[0] || v > opt.bounds[1]))) {
          throw new Error(opt.bounds ? tr("{name}: a whole number from {n} to {m}", { name: Options.label(opt.name), n: opt.bounds[0], m: opt.bounds[1] }) : tr("{name}: a whole number", { name: Options.label(opt.name) }));
        }
        out[opt.name] = v;
      } else out[opt.name] = text;
    }
    return out;
  }

  const rulesName = () => (preset() ? preset().name : "jamaica");

  Cartagena.TableForm = { setup, options, reset, rulesName };
})();
