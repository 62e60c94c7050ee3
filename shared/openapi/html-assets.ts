/** Inline style and script of the reference page (hashed into its Content-Security-Policy). */
export const PAGE_STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #fff; --code: #f3f4f6; --accent: #0b5cad; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9aa4ae; --line: #30363d; --bg: #0d1117; --code: #161b22; --accent: #58a6ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); display: grid; grid-template-columns: 15rem 1fr; grid-template-areas: "head head" "nav main"; }
header { grid-area: head; padding: 1rem 1.5rem; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; align-items: baseline; gap: .5rem 1.5rem; }
header h1 { margin: 0; font-size: 1.4rem; }
.meta, .count, .opid, .access { color: var(--muted); font-size: .85rem; }
.filter { margin-left: auto; font-size: .9rem; }
.filter input { font: inherit; padding: .25rem .5rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); width: 16rem; }
nav { grid-area: nav; position: sticky; top: 0; align-self: start; max-height: 100vh; overflow: auto; padding: 1rem 1.5rem; border-right: 1px solid var(--line); }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li { margin: .25rem 0; }
main { grid-area: main; padding: 0 1.5rem 4rem; min-width: 0; }
a { color: var(--accent); }
h2 { margin-top: 2.5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h4 { margin: 1rem 0 .25rem; }
.op { border: 1px solid var(--line); border-radius: 6px; padding: .25rem 1rem 1rem; margin: 1rem 0; }
.op h3 { margin: .75rem 0 .25rem; font-size: 1.05rem; }
.method { display: inline-block; min-width: 4.2rem; text-align: center; border-radius: 4px; padding: 0 .4rem; font-size: .8rem; font-weight: 700; color: #fff; background: #57606a; }
.method.get { background: #1f6feb; } .method.post { background: #1a7f37; } .method.put, .method.patch { background: #9a6700; } .method.delete { background: #cf222e; }
code { font: .85em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); padding: 0 .25rem; border-radius: 3px; }
table { border-collapse: collapse; width: 100%; margin: .25rem 0; font-size: .9rem; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
thead th { background: var(--code); }
.type { font-style: italic; }
.format, .limits { color: var(--muted); font-size: .85em; }
.codes a { font-size: .85em; margin-right: .25rem; }
tr:target { outline: 2px solid var(--accent); }
[hidden] { display: none !important; }
@media (max-width: 50rem) { body { grid-template-columns: 1fr; grid-template-areas: "head" "nav" "main"; } nav { position: static; max-height: none; border-right: 0; } }
`;

export const PAGE_SCRIPT = `
(function () {
  var input = document.getElementById('filter');
  input.addEventListener('input', function () {
    var query = input.value.trim().toLowerCase();
    document.querySelectorAll('.op').forEach(function (op) {
      op.hidden = query !== '' && op.getAttribute('data-search').indexOf(query) === -1;
    });
    document.querySelectorAll('section.tag').forEach(function (section) {
      section.hidden = query !== '' && !section.querySelector('.op:not([hidden])');
    });
  });
})();
`;
