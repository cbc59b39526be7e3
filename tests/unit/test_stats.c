/* test_stats.c */
#include "config.h"
#include "unit.h"
int main(void)
{
	return unit_done("test_stats");
}
