SOFT = 5 * 60
