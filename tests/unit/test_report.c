/* test_report.c */
#include "config.h"
#include "unit.h"
int main(void)
{
	return unit_done("test_report");
}
