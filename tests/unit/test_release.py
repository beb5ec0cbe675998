"""The release digest in the shared page cache's keys (config.release): it moves with any change to
what renders a page, and only then."""

from config.release import code_release


def tree(root, files: dict[str, str]):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


FILES = {"templates/base.html": "<main>{{ page.content }}</main>", "negotiations/views.py": "x = 1\n",
         "static/css/app.css": "main { margin: 0 }"}


def test_the_same_code_gives_the_same_release(tmp_path):
    assert code_release(tree(tmp_path / "a", FILES)) == code_release(tree(tmp_path / "b", FILES))


def test_a_changed_template_python_file_or_stylesheet_gives_another_release(tmp_path):
    before = code_release(tree(tmp_path / "before", FILES))
    for name in FILES:
        changed = tree(tmp_path / name.replace("/", "-"), {**FILES, name: FILES[name] + " "})
        assert code_release(changed) != before, name


def test_files_that_render_nothing_do_not_move_it(tmp_path):
    before = code_release(tree(tmp_path / "before", FILES))
    after = code_release(tree(tmp_path / "after", {**FILES, "templates/notes.md": "x", "tests/test_x.py": "y"}))
    assert after == before


def test_a_moved_file_gives_another_release(tmp_path):
    moved = {"templates/other.html" if name == "templates/base.html" else name: text for name, text in FILES.items()}
    assert code_release(tree(tmp_path / "a", FILES)) != code_release(tree(tmp_path / "b", moved))
