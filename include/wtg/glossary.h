/* glossary.h: the terms the tabs use, one line each (the dashboard's t). The glossary is shared; each
 * experiment lists the ids of the terms it uses (struct wtg_experiment's terms). */
#ifndef WTG_GLOSSARY_H
#define WTG_GLOSSARY_H

/* One term: its id (what an experiment lists), its name on screen, and what it means in one line. */
struct wtg_term {
	const char *id;
	const char *name;
	const char *line;
};

/* The longest name and line, in columns: one term is one line at 80 columns. */
#define WTG_TERM_NAME_MAX 14
#define WTG_TERM_LINE_MAX 58

extern const struct wtg_term wtg_glossary[];
extern const int wtg_nglossary;
/* The term called id, or NULL. */
const struct wtg_term *wtg_term_find(const char *id);

#endif
