/* test_keys.c: the dashboard's key table against the man page's INTERACTIVE KEYS, each key code acting
 * in one row, and a deck key of its own for every experiment of the registry. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/tui/dash.h"
#include "unit.h"

/* Adds each space-separated word of s to words (unless there), returns the new count. */
static int add_words(char words[][32], int n, int max, const char *s)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", s);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int i = 0;
		while (i < n && strcmp(words[i], w) != 0)
			i++;
		if (i == n && n < max)
			snprintf(words[n++], 32, "%s", w);
	}
	return n;
}

/* The keys a man page line ".B x" or ".BR a \", \" b" names: quoted separators dropped, "1 \- 9" read
 * as "1-9". */
static void man_line_keys(const char *line, char *out, size_t len)
{
	char buf[512];
	size_t o = 0;
	bool quoted = false;
	for (const char *p = line; *p && o + 2 < sizeof buf; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (!quoted && p[0] == '\\' && p[1] == '-')
			buf[o++] = '-', p++;
		else if (!quoted)
			buf[o++] = *p == '\n' ? ' ' : *p;
		else if (o > 0 && buf[o - 1] != ' ')
			buf[o++] = ' ';
	}
	buf[o] = '\0';
	out[0] = '\0';
	char *save = NULL, *prev = NULL;
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (strcmp(w, "-") == 0 && prev) {
			strncat(out, "-", len - strlen(out) - 1);
			prev = NULL;	/* the next word joins the range */
			continue;
		}
		if (out[0] && prev)
			strncat(out, " ", len - strlen(out) - 1);
		strncat(out, w, len - strlen(out) - 1);
		prev = w;
	}
}

/* The words of a that b lacks, each named on stderr with why. */
static int words_missing(char a[][32], int na, char b[][32], int nb, const char *why)
{
	int missing = 0;
	for (int i = 0; i < na; i++) {
		int j = 0;
		while (j < nb && strcmp(b[j], a[i]) != 0)
			j++;
		if (j == nb) {
			fprintf(stderr, "key '%s' %s\n", a[i], why);
			missing++;
		}
	}
	return missing;
}

/* The man page's INTERACTIVE KEYS section lists exactly the keys of the table. */
static void test_keys_man(void)
{
	const char *src = getenv("top_srcdir");
	char path[512];
	snprintf(path, sizeof path, "%s/man/wtg.1", src ? src : ".");
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	static char man[64][32], table[64][32];
	int nman = 0, ntable = 0;
	char line[512], keys[256];
	bool in = false, tp = false;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, ".SH", 3) == 0)
			in = strstr(line, "INTERACTIVE KEYS") != NULL;
		else if (in && strncmp(line, ".TP", 3) == 0)
			tp = true;
		else if (in && tp && (strncmp(line, ".B ", 3) == 0 || strncmp(line, ".BR ", 4) == 0)) {
			man_line_keys(line + (line[2] == 'R' ? 4 : 3), keys, sizeof keys);
			nman = add_words(man, nman, 64, keys);
			tp = false;
		} else {
			tp = false;
		}
	}
	fclose(f);
	for (int i = 0; i < dash_nkeys; i++)
		ntable = add_words(table, ntable, 64, dash_keys[i].man);
	CHECK(nman > 10);
	CHECK(words_missing(table, ntable, man, nman, "is in the table, not in the man page's KEYS") == 0);
	CHECK(words_missing(man, nman, table, ntable, "is in the man page's KEYS, not in the table") == 0);
	char words[8][32];
	CHECK(add_words(words, 0, 8, "1-9 0 1-9") == 2);
	man_line_keys("1 \\- 9 \", \" 0 \", \" !", keys, sizeof keys);
	CHECK_STR(keys, "1-9 0 !");
	man_line_keys("PageDown \", \" Tab \" / \" PageUp", keys, sizeof keys);
	CHECK_STR(keys, "PageDown Tab PageUp");
}

/* Every key code acts in one row only; every row acts, is named, and is helped or joins the line
 * above; the status line has hints, and help and quit on its right. */
static void test_keys_table(void)
{
	int right = 0, hints = 0;
	CHECK(dash_keys[0].label != NULL);
	for (int i = 0; i < dash_nkeys; i++) {
		const struct dash_key *k = &dash_keys[i];
		CHECK(k->act != NULL);
		CHECK(k->man && k->man[0]);
		CHECK((k->label == NULL) == (k->help == NULL));
		CHECK(!k->help || tui_width(k->help) <= 55);	/* the help is one screen at 80x24 */
		CHECK((k->hint == NULL) == (k->hint_keys == NULL));
		right += k->hint && k->right;
		hints += k->hint && !k->right;
		for (int a = 0; a < (int)WTG_ARRAY_LEN(k->codes) && k->codes[a]; a++)
			for (int j = i; j < dash_nkeys; j++)
				for (int b = j == i ? a + 1 : 0; b < (int)WTG_ARRAY_LEN(k->codes) && dash_keys[j].codes[b]; b++)
					CHECK(dash_keys[j].codes[b] != k->codes[a]);
	}
	CHECK(right == 2);
	CHECK(hints >= 5);
}

/* Every experiment of the registry has a deck key of its own, whatever its place (--order can put
 * it anywhere): no two places share a key, no deck key is a command's, and the tabs' row of the key
 * table (what help and the man page list) names each ("1-9" names 1 to 9). */
static void test_deck_keys(void)
{
	int nkeys = (int)strlen(dash_deck_keys);
	CHECK(wtg_nexperiments <= nkeys);
	char words[32][32];
	int nwords = add_words(words, 0, 32, dash_keys[0].man);
	for (int p = 0; p < wtg_nexperiments && p < nkeys; p++) {
		char key = dash_deck_keys[p], word[2] = { key, '\0' };
		CHECK(strchr(dash_deck_keys + p + 1, key) == NULL);
		for (int i = 1; i < dash_nkeys; i++)
			for (int a = 0; a < (int)WTG_ARRAY_LEN(dash_keys[i].codes) && dash_keys[i].codes[a]; a++)
				CHECK(dash_keys[i].codes[a] != key);
		bool named = key >= '1' && key <= '9' && strcmp(words[0], "1-9") == 0;
		for (int w = 0; w < nwords; w++)
			named = named || strcmp(words[w], word) == 0;
		if (!named)
			fprintf(stderr, "test_tui: the deck key '%c' (place %d of %d experiments) is not in the tabs' row \"%s\"\n",
				key, p + 1, wtg_nexperiments, dash_keys[0].man);
		CHECK(named);
	}
}

int main(void)
{
	test_keys_man();
	test_keys_table();
	test_deck_keys();
	return unit_done("test_keys");
}
